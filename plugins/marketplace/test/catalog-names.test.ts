/**
 * A plugin installed from a catalog answers to its catalog name as well as its package name, through the real
 * binary: `update`, `update --rollback`, `disable`, `enable` and `remove` given `jsonfmt` act on
 * `@acme/keel-jsonfmt`; `disable` refuses a name no plugin has instead of reporting success for nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { marketEnv, tarball, type MarketEnv } from "./support/market-env.ts";

const PKG = "@acme/keel-jsonfmt";

async function catalog(env: MarketEnv, versions: string[]): Promise<string> {
  const dir = join(env.fixtures, "acme");
  mkdirSync(dir, { recursive: true });
  const listed = [];
  for (const version of versions) {
    const file = `jsonfmt-${version}.tgz`;
    const { integrity } = await tarball(env, file, { name: PKG, version });
    listed.push({ version, source: `../${file}`, integrity });
  }
  const plugin = {
    name: "jsonfmt",
    description: "formats JSON",
    source: `../jsonfmt-${versions[0]}.tgz`,
    versions: listed,
  };
  writeFileSync(
    join(dir, "marketplace.json"),
    JSON.stringify({ name: "acme", owner: { name: "Acme" }, plugins: [plugin] }),
  );
  return dir;
}

const listed = async (env: MarketEnv) => (await env.keel(["list"])).stdout;

describe("a catalog plugin's two names", () => {
  it("update, update --rollback, disable, enable and remove take the catalog name", async () => {
    const env = marketEnv();
    expect((await env.keel(["market", "add", await catalog(env, ["1.0.0"])])).code).toBe(0);
    expect((await env.keel(["install", "jsonfmt", "--yes"])).code).toBe(0);
    expect(await listed(env)).toContain(`${PKG}@1.0.0`);

    await catalog(env, ["1.0.0", "1.1.0"]);
    expect((await env.keel(["market", "update"])).code).toBe(0);
    const updated = await env.keel(["update", "jsonfmt", "--yes"]);
    expect(updated.stdout, updated.stderr).toContain(`updated ${PKG}: 1.0.0 → 1.1.0`);
    const back = await env.keel(["update", "--rollback", "jsonfmt"]);
    expect(back.stdout, back.stderr).toBe(`rolled back ${PKG} to 1.0.0\n`);
    expect(await listed(env)).toContain(`${PKG}@1.0.0`);

    const disabled = await env.keel(["disable", "jsonfmt"]);
    expect(disabled.stdout, disabled.stderr).toContain(`disabled ${PKG}`);
    const settings = JSON.parse(readFileSync(join(env.home, "settings.json"), "utf8"));
    expect(settings.plugins.disabled).toEqual([PKG]);
    expect(await listed(env)).toMatch(new RegExp(`${PKG}@1.0.0 .*disabled`));
    expect((await env.keel(["acme-keel-jsonfmt-version"])).stdout).not.toContain(PKG);
    expect((await env.keel(["enable", "jsonfmt"])).stdout).toBe(`enabled ${PKG}\n`);
    expect((await env.keel(["acme-keel-jsonfmt-version"])).stdout).toBe(`${PKG}@1.0.0\n`);

    const removed = await env.keel(["remove", "jsonfmt"]);
    expect(removed.stdout, removed.stderr).toContain(`removed ${PKG}:\n`);
    expect(await listed(env)).not.toContain(PKG);
  }, 180_000);

  it("disable refuses a name no plugin has, and writes nothing", async () => {
    const env = marketEnv();
    const run = await env.keel(["disable", "no-such-plugin"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("no plugin named no-such-plugin is installed or loaded here, so nothing was disabled");
    expect(run.stdout).toBe("");
    expect(() => readFileSync(join(env.home, "settings.json"), "utf8")).toThrow();
  });
});
