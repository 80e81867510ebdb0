/**
 * The managed settings' policy tiers through the real binary: a blocked plugin is refused by every way of
 * installing it and absent from `search`; with `plugins.allowed` only those install; a blocked catalog is not
 * added nor used; a required plugin is neither disabled nor removed. Each refusal names the setting and file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runKeel } from "../../../test/support/keel-cli.ts";
import { marketEnv, tarball, type MarketEnv } from "./support/market-env.ts";

const owner = { name: "Keel Tests" };

/** Runs keel with `policy` as the managed settings. */
function managed(env: MarketEnv, policy: object) {
  const file = join(env.fixtures, "managed.json");
  writeFileSync(file, JSON.stringify({ plugins: policy }));
  const run = (args: string[]) =>
    runKeel(args, env, { extraEnv: { KEEL_MANAGED_SETTINGS: file, KEEL_CACHE_DIR: join(env.home, "..", "cache") } });
  return { file, run };
}

async function catalog(env: MarketEnv, name: string, plugins: string[]): Promise<string> {
  const dir = join(env.fixtures, name);
  mkdirSync(dir, { recursive: true });
  for (const p of plugins) await tarball(env, `${p}.tgz`, { name: p });
  const entries = plugins.map((p) => ({ name: p, description: `the ${p} plugin`, source: `../${p}.tgz` }));
  writeFileSync(join(dir, "marketplace.json"), JSON.stringify({ name, owner, plugins: entries }));
  return dir;
}

describe("policy tiers of the managed settings", () => {
  it("refuses a blocked plugin by name and by package, and hides it from search", async () => {
    const env = marketEnv();
    await env.keel(["market", "add", await catalog(env, "acme", ["kp-good", "kp-bad"])]);
    const { file, run } = managed(env, { blocked: ["kp-bad"] });
    expect((await run(["search", "plugin"])).stdout).toBe("kp-good@acme  the kp-good plugin\n");
    const byName = await run(["install", "kp-bad", "--yes"]);
    expect(byName.stderr).toContain(
      `kp-bad is blocked by plugins.blocked of the managed settings (${file}); it was not installed`,
    );
    expect(byName.code).toBe(1);
    const byFile = await run(["install", join(env.fixtures, "kp-bad.tgz"), "--yes"]);
    expect(byFile.stderr).toContain(`kp-bad@1.0.0: kp-bad is blocked by plugins.blocked of the managed settings`);
    expect(byFile.code).toBe(1);
    expect((await run(["list"])).stdout).toContain("No plugins installed.");
    expect((await run(["install", "kp-good", "--yes"])).code).toBe(0);
  });

  it("installs only the plugins plugins.allowed lists", async () => {
    const env = marketEnv();
    await env.keel(["market", "add", await catalog(env, "acme", ["kp-good", "kp-other"])]);
    const { file, run } = managed(env, { allowed: ["kp-good"] });
    const refused = await run(["install", "kp-other", "--yes"]);
    expect(refused.stderr).toContain(
      `kp-other is not in plugins.allowed of the managed settings (${file}), so it cannot be installed`,
    );
    expect(refused.code).toBe(1);
    expect((await run(["install", "kp-good", "--yes"])).stdout).toContain("installed kp-good@1.0.0");
  });

  it("refuses adding a blocked catalog, and does not use one added before the block", async () => {
    const env = marketEnv();
    const dir = await catalog(env, "shady", ["kp-shady"]);
    const { file, run } = managed(env, { blockedCatalogs: ["shady"] });
    const add = await run(["market", "add", dir]);
    expect(add.stderr).toContain(`is blocked by plugins.blockedCatalogs of the managed settings (${file})`);
    expect(add.code).toBe(1);
    expect((await env.keel(["market", "add", dir])).code).toBe(0);
    expect((await run(["search", "plugin"])).stdout).toBe("");
    const install = await run(["install", "kp-shady", "--yes"]);
    expect(install.stderr).toContain(
      `the catalog "shady" is blocked by plugins.blockedCatalogs of the managed settings (${file}); kp-shady was ` +
        "not installed",
    );
    expect(install.code).toBe(1);
  });

  it("neither disables nor removes a required plugin", async () => {
    const env = marketEnv();
    const { path } = await tarball(env, "req.tgz", { name: "kp-req" });
    expect((await env.keel(["install", path, "--yes"])).code).toBe(0);
    const { file, run } = managed(env, { required: ["kp-req"] });
    for (const [command, doing] of [
      ["disable", "disabled"],
      ["remove", "removed"],
    ] as const) {
      const refused = await run([command, "kp-req"]);
      expect(refused.stderr).toContain(
        `kp-req is required (plugins.required of the distribution, your settings or the managed settings ` +
          `(${file})), so it cannot be ${doing}`,
      );
      expect(refused.code).toBe(1);
    }
    expect((await run(["kp-req-version"])).stdout).toBe("kp-req@1.0.0\n");
  });
});
