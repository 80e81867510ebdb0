/**
 * `keel remove` through the real binary: afterwards no file of the plugin remains under keel's folders (its
 * folder, the version kept for rollback, its lock entry, its cached tarball and packument, its settings section
 * and data folder, asked for one by one), and neither the next start nor `update` brings it back. Answering no
 * keeps the settings and the data.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type LocalRegistry } from "../../../test/support/local-registry.ts";
import { marketEnv, packageDir, type MarketEnv } from "./support/market-env.ts";

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startRegistry();
}, 60_000);
afterAll(() => registry?.close());

/** Every path under `root` whose name or (text) content mentions `needle`. */
function mentions(root: string, needle: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (path.includes(needle)) out.push(path);
    if (statSync(path).isDirectory()) out.push(...mentions(path, needle));
    else if (readFileSync(path).includes(needle)) out.push(path);
  }
  return out;
}

/** kp-gone installed from the registry, updated once (so a previous version is kept), with settings and data. */
async function installed(env: MarketEnv, name: string): Promise<void> {
  await registry.publish(packageDir(env, "g1", { name }));
  expect((await env.keel(["install", `npm:${name}`, "--yes"])).code).toBe(0);
  await registry.publish(packageDir(env, "g2", { name, version: "1.1.0" }));
  expect((await env.keel(["update", name, "--yes"])).code).toBe(0);
  const settings = JSON.parse(readFileSync(join(env.home, "settings.json"), "utf8"));
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ ...settings, [name]: { volume: 3 } }));
  mkdirSync(join(env.home, "plugin-data", name), { recursive: true });
  writeFileSync(join(env.home, "plugin-data", name, "state.json"), '{"seen":1}');
}

describe("keel remove", () => {
  it("leaves no file of the plugin under keel's folders, and update does not bring it back", async () => {
    const env = marketEnv(registry);
    await installed(env, "kp-gone");
    expect(mentions(env.home, "kp-gone").length).toBeGreaterThan(0);
    const run = await env.keel(["remove", "kp-gone"], "y\ny\n");
    expect(run.stderr).toContain(`Delete its settings (the "kp-gone" section of ${join(env.home, "settings.json")})?`);
    expect(run.stderr).toContain(`Delete its data folder ${join(env.home, "plugin-data", "kp-gone")}?`);
    expect(run.code).toBe(0);
    expect(mentions(env.home, "kp-gone")).toEqual([]);

    expect((await env.keel(["update"])).stdout).not.toContain("kp-gone");
    expect((await env.keel(["list"])).stdout).toContain("No plugins installed.");
    expect(mentions(env.home, "kp-gone")).toEqual([]);
  }, 120_000);

  it("keeps the settings section and the data folder when the user says no", async () => {
    const env = marketEnv(registry);
    await installed(env, "kp-kept");
    const run = await env.keel(["remove", "kp-kept"], "n\nn\n");
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(env.home, "settings.json"), "utf8"))["kp-kept"]).toEqual({ volume: 3 });
    expect(readFileSync(join(env.home, "plugin-data", "kp-kept", "state.json"), "utf8")).toBe('{"seen":1}');
    expect(mentions(join(env.home, "plugins"), "kp-kept")).toEqual([]);
  }, 120_000);
});
