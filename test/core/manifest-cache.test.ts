import { readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { PluginPackageSchema, z } from "@keel/extensions-api";
import { FORMAT, ManifestCache } from "../../core/src/host/manifest-cache.ts";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

describe("the manifest cache", () => {
  it("serves an unchanged manifest from the cache and re-reads one that changed", () => {
    const root = tempDir();
    const cacheFile = join(root, "cache", "manifests.json");
    const dir = writePlugin(root, { name: "cached", keel: { contributes: { commands: ["/one"] } } });

    const first = new ManifestCache(cacheFile);
    expect(first.read(dir)).toMatchObject({ ok: true, pkg: { keel: { contributes: { commands: ["/one"] } } } });
    first.save();
    expect(JSON.parse(readFileSync(cacheFile, "utf8")).entries[join(dir, "package.json")]).toBeDefined();

    // Same size and mtime: the cache answers without reading the file (here, a same-length edit whose mtime
    // was put back, which only a deliberate utimes can do).
    const path = join(dir, "package.json");
    const original = readFileSync(path, "utf8");
    const fixed = new Date(1_000_000);
    utimesSync(path, fixed, fixed);
    const primed = new ManifestCache(cacheFile);
    primed.read(dir);
    primed.save();
    writeFileSync(path, original.replace('"/one"', '"/two"'));
    utimesSync(path, fixed, fixed);
    expect(new ManifestCache(cacheFile).read(dir)).toMatchObject({
      ok: true,
      pkg: { keel: { contributes: { commands: ["/one"] } } },
    });

    // An edit that changes size or mtime is seen on the next start.
    writeFileSync(path, original.replace('"/one"', '"/three-and-more"'));
    expect(new ManifestCache(cacheFile).read(dir)).toMatchObject({
      ok: true,
      pkg: { keel: { contributes: { commands: ["/three-and-more"] } } },
    });
  });

  it("never caches an invalid manifest, so its error shows on every start", () => {
    const root = tempDir();
    const cacheFile = join(root, "manifests.json");
    const dir = writePlugin(root, { name: "broken", keel: { apiVersion: 7 } });
    const cache = new ManifestCache(cacheFile);
    expect(cache.read(dir).ok).toBe(false);
    cache.save();
    expect(new ManifestCache(cacheFile).read(dir).ok).toBe(false);
  });

  it("starts empty from a cache file that is not JSON", () => {
    const root = tempDir();
    const cacheFile = join(root, "manifests.json");
    writeFileSync(cacheFile, "{ torn");
    const dir = writePlugin(root, { name: "fine" });
    expect(new ManifestCache(cacheFile).read(dir).ok).toBe(true);
  });
});

/**
 * The manifest schema's shape under each cache format. A changed schema needs a new format, or a cached manifest
 * of the old shape is served as if it were valid (a missing default crashes the host): bump FORMAT in
 * core/src/host/manifest-cache.ts and add its fingerprint here; never edit an old entry.
 */
const FINGERPRINTS: Record<number, string> = {
  3: "e1e6dd8df2bca94b",
  4: "f37fcae7fdc0805f",
  5: "5b568062d57cf696",
  6: "53062eafe5e3637a",
  7: "0df6063445e4daf8",
  8: "bfbea6c3b5c89aa8",
  9: "6400e61453420a82",
  10: "e23cfbeb8ed13b43",
};

it("has a new cache format for every change of the manifest schema", () => {
  const shape = JSON.stringify(z.toJSONSchema(PluginPackageSchema, { unrepresentable: "any" }));
  const fingerprint = createHash("sha256").update(shape).digest("hex").slice(0, 16);
  expect(
    FINGERPRINTS[FORMAT],
    `the manifest schema changed: bump FORMAT in manifest-cache.ts and record ${fingerprint} for it`,
  ).toBe(fingerprint);
});

describe("the cache file", () => {
  it("drops the entries of paths that are gone when it is written", () => {
    const root = tempDir();
    const cacheFile = join(root, "cache", "manifests.json");
    const kept = writePlugin(root, { name: "kept" });
    const removed = writePlugin(root, { name: "removed" });
    const first = new ManifestCache(cacheFile);
    first.read(kept);
    first.read(removed);
    first.save();
    rmSync(removed, { recursive: true });
    const second = new ManifestCache(cacheFile);
    second.read(writePlugin(root, { name: "new" }));
    second.save();
    const entries = Object.keys(JSON.parse(readFileSync(cacheFile, "utf8")).entries).map((p) => p.split("/").at(-2));
    expect(entries.sort()).toEqual(["kept", "new"]);
  });
});
