import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { PluginPackageSchema, z } from "@keel/extensions-api";
import { FORMAT, ManifestCache } from "../../core/src/host/manifest-cache.ts";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

describe("the manifest cache", () => {
  it("serves an unchanged manifest from the cache and re-reads one that changed", () => {
    const root = tempDir();
    const cacheFile = join(root, "cache", "manifests");
    const dir = writePlugin(root, { name: "cached", keel: { contributes: { commands: ["/one"] } } });

    const first = new ManifestCache(cacheFile);
    expect(first.read(dir)).toMatchObject({ ok: true, pkg: { keel: { contributes: { commands: ["/one"] } } } });
    first.save();
    expect(entriesOf(cacheFile, root)[dir]).toBeDefined();

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
    const cacheFile = join(root, "manifests");
    const dir = writePlugin(root, { name: "broken", keel: { apiVersion: 7 } });
    const cache = new ManifestCache(cacheFile);
    expect(cache.read(dir).ok).toBe(false);
    cache.save();
    expect(new ManifestCache(cacheFile).read(dir).ok).toBe(false);
  });

  it("starts empty from a cache file that is not JSON", () => {
    const root = tempDir();
    const cacheFile = join(root, "manifests");
    mkdirSync(cacheFile);
    writeFileSync(join(cacheFile, `${encodeURIComponent(root)}.json`), "{ torn");
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
  11: "87f838fc298fa84c",
  12: "8374b523ac260237",
  13: "2c1d7ee814ba7bad",
};

it("has a new cache format for every change of the manifest schema", () => {
  const shape = JSON.stringify(z.toJSONSchema(PluginPackageSchema, { unrepresentable: "any" }));
  const fingerprint = createHash("sha256").update(shape).digest("hex").slice(0, 16);
  expect(
    FINGERPRINTS[FORMAT],
    `the manifest schema changed: bump FORMAT in manifest-cache.ts and record ${fingerprint} for it`,
  ).toBe(fingerprint);
});

describe("the cache's files", () => {
  it("drops the entries of paths that are gone when it is written", () => {
    const root = tempDir();
    const cacheFile = join(root, "cache", "manifests");
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
    const entries = Object.keys(entriesOf(cacheFile, root)).map((p) => p.split("/").at(-1));
    expect(entries.sort()).toEqual(["kept", "new"]);
  });

  it("keeps one file per folder of plugins, and drops the file of a folder that is gone", () => {
    const cache = join(tempDir(), "manifests");
    const [here, gone, elsewhere] = [tempDir(), tempDir(), tempDir()];
    const first = new ManifestCache(cache);
    for (const root of [here, gone]) first.read(writePlugin(root, { name: "a" }));
    first.save();
    expect(readdirSync(cache).sort()).toEqual([here, gone].map((r) => `${encodeURIComponent(r)}.json`).sort());

    rmSync(gone, { recursive: true });
    const second = new ManifestCache(cache);
    second.read(writePlugin(elsewhere, { name: "b" }));
    second.save();
    expect(readdirSync(cache).sort()).toEqual([here, elsewhere].map((r) => `${encodeURIComponent(r)}.json`).sort());
    expect(Object.keys(entriesOf(cache, here))).toEqual([join(here, "a")]);
  });

  it("names the file of a folder too long for a file name by its digest", () => {
    const cache = join(tempDir(), "manifests");
    const deep = join(tempDir(), ..."a-folder-with-a-long-name".repeat(2).split("-"), "x".repeat(120));
    mkdirSync(deep, { recursive: true });
    const dir = writePlugin(deep, { name: "deep" });
    const first = new ManifestCache(cache);
    first.read(dir);
    first.save();
    const [name] = readdirSync(cache);
    expect(name).toMatch(/^#[0-9a-f]{64}\.json$/);
    expect(Object.keys(JSON.parse(readFileSync(join(cache, name!), "utf8")).entries)).toEqual([dir]);
  });
});

/** The entries the cache in `folder` keeps for the plugin folders inside `root`. */
function entriesOf(folder: string, root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(folder, `${encodeURIComponent(root)}.json`), "utf8")).entries;
}
