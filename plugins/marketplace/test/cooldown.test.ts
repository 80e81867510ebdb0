/**
 * The cooldown (`marketplace.minReleaseAge`) through the real binary: a version published "now" is skipped by
 * install and update, from the npm registry (dated by the registry) and from a catalog (dated by its
 * `published`), and is taken when named exactly.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type LocalRegistry } from "../../../test/support/local-registry.ts";
import { marketEnv, packageDir, tarball, type MarketEnv } from "./support/market-env.ts";

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startRegistry();
}, 60_000);
afterAll(() => registry?.close());

const DAY = 86_400_000;
const withCooldown = (env: MarketEnv, age: string) =>
  writeFileSync(
    join(env.home, "settings.json"),
    JSON.stringify({ marketplace: { registry: registry.url, minReleaseAge: age } }),
  );

describe("the cooldown", () => {
  it("skips an npm version published now at install and update, and takes it when named exactly", async () => {
    const env = marketEnv(registry);
    withCooldown(env, "3d");
    await registry.publish(packageDir(env, "c1", { name: "kp-cool" }));
    registry.backdate("kp-cool", "1.0.0", new Date(Date.now() - 10 * DAY));
    await registry.publish(packageDir(env, "c2", { name: "kp-cool", version: "1.1.0" }));

    const installed = await env.keel(["install", "npm:kp-cool", "--yes"]);
    expect(installed.stdout).toContain("installed kp-cool@1.0.0");
    expect((await env.keel(["update", "kp-cool"])).stdout).toBe("up to date: kp-cool@1.0.0\n");

    const young = await env.keel(["install", "npm:kp-cool@^1.1.0", "--yes"]);
    expect(young.stderr).toMatch(/no version of npm:kp-cool@\^1\.1\.0 was published before 20\d\d-/);
    expect(young.stderr).toContain(
      '(marketplace.minReleaseAge is "3d"); name a version exactly (npm:kp-cool@<version>)',
    );
    expect(young.code).toBe(1);
    const exact = await env.keel(["install", "npm:kp-cool@1.1.0", "--yes"]);
    expect(exact.stdout).toContain("installed kp-cool@1.1.0");
    expect((await env.keel(["kp-cool-version"])).stdout).toBe("kp-cool@1.1.0\n");

    registry.backdate("kp-cool", "1.1.0", new Date(Date.now() - 4 * DAY));
    await registry.publish(packageDir(env, "c3", { name: "kp-cool", version: "1.2.0" }));
    expect((await env.keel(["install", "npm:kp-cool", "--yes"])).stdout).toContain("installed kp-cool@1.1.0");
  }, 120_000);

  it("skips a catalog version published now, and takes it when named exactly", async () => {
    const env = marketEnv(registry);
    withCooldown(env, "12h");
    await tarball(env, "n-1.0.0.tgz", { name: "kp-cat" });
    await tarball(env, "n-1.1.0.tgz", { name: "kp-cat", version: "1.1.0" });
    const dir = join(env.fixtures, "acme");
    mkdirSync(dir, { recursive: true });
    const versions = [
      { version: "1.0.0", source: "../n-1.0.0.tgz", published: new Date(Date.now() - 2 * DAY).toISOString() },
      { version: "1.1.0", source: "../n-1.1.0.tgz", published: new Date().toISOString() },
    ];
    const plugins = [{ name: "kp-cat", source: "../n-1.0.0.tgz", versions }];
    writeFileSync(join(dir, "marketplace.json"), JSON.stringify({ name: "acme", owner: { name: "t" }, plugins }));
    expect((await env.keel(["market", "add", dir])).code).toBe(0);

    expect((await env.keel(["install", "kp-cat", "--yes"])).stdout).toContain("installed kp-cat@1.0.0");
    const young = await env.keel(["install", "kp-cat@^1.1", "--yes"]);
    expect(young.stderr).toContain('(marketplace.minReleaseAge is "12h"); name a version exactly (kp-cat@1.1.0)');
    expect(young.code).toBe(1);
    expect((await env.keel(["install", "kp-cat@1.1.0", "--yes"])).stdout).toContain("installed kp-cat@1.1.0");
  }, 120_000);
});
