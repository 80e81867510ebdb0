/**
 * Catalogs through the real binary: add, list, search, install by bare name (saying which catalog), refuse an
 * ambiguous name unless qualified, refuse a tarball whose sha512 is not the catalog's, refuse a blocked version
 * at install and at load, read Claude Code's format, and obey the managed `plugins.allowedCatalogs`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { marketEnv, tarball, type MarketEnv } from "./support/market-env.ts";

function catalogFile(env: MarketEnv, folder: string, catalog: object): string {
  const dir = join(env.fixtures, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "marketplace.json"), JSON.stringify(catalog, null, 2));
  return dir;
}

const owner = { name: "Keel Tests" };

describe("catalogs", () => {
  it("adds a catalog, searches it, and installs a bare name saying which catalog it came from", async () => {
    const env = marketEnv();
    const { integrity } = await tarball(env, "notify-1.0.0.tgz", { name: "kp-notify" });
    const dir = catalogFile(env, "acme", {
      name: "acme",
      owner,
      plugins: [
        {
          name: "kp-notify",
          description: "desktop notifications when a run ends",
          source: "./notify-1.0.0.tgz",
          keywords: ["notification"],
          versions: [{ version: "1.0.0", source: "../notify-1.0.0.tgz", integrity }],
        },
      ],
    });
    expect((await env.keel(["market", "add", dir])).stdout).toBe(
      `added the catalog "acme" (1 plugins) from ${join(dir, "marketplace.json")}\n` +
        "  unsigned: whoever can change it can change what it installs\n",
    );
    expect((await env.keel(["market", "list"])).stdout).toMatch(/^acme  1 plugins  /);
    expect((await env.keel(["search", "notification"])).stdout).toBe(
      "kp-notify@acme  desktop notifications when a run ends\n",
    );
    const run = await env.keel(["install", "kp-notify", "--yes"]);
    expect(run.stderr).toContain('kp-notify: found in the catalog "acme"');
    expect(run.code).toBe(0);
    expect((await env.keel(["kp-notify-version"])).stdout).toBe("kp-notify@1.0.0\n");
    expect((await env.keel(["list"])).stdout).toContain("kp-notify@1.0.0  user  lazy  kp-notify@*@acme");
  });

  it("refuses an ambiguous bare name, and installs it qualified as name@catalog", async () => {
    const env = marketEnv();
    await tarball(env, "n.tgz", { name: "kp-notify" });
    const plugin = { name: "kp-notify", source: "../n.tgz" };
    const a = catalogFile(env, "a", { name: "cat-a", owner, plugins: [plugin] });
    const b = catalogFile(env, "b", { name: "cat-b", owner, plugins: [plugin] });
    await env.keel(["market", "add", a]);
    await env.keel(["market", "add", b]);
    const run = await env.keel(["install", "kp-notify", "--yes"]);
    expect(run.stderr).toContain(
      '"kp-notify" is in more than one catalog; say which: kp-notify@cat-a, kp-notify@cat-b',
    );
    expect(run.code).toBe(1);
    const qualified = await env.keel(["install", "kp-notify@cat-b", "--yes"]);
    expect(qualified.stderr).toContain('found in the catalog "cat-b"');
    expect(qualified.code).toBe(0);
  });

  it("refuses a tarball whose sha512 is not the one the catalog lists", async () => {
    const env = marketEnv();
    const { integrity } = await tarball(env, "n.tgz", { name: "kp-notify" });
    await tarball(env, "n.tgz", { name: "kp-notify", files: { "extra.txt": "changed after the catalog was written" } });
    const dir = catalogFile(env, "acme", {
      name: "acme",
      owner,
      plugins: [{ name: "kp-notify", source: "../n.tgz", versions: [{ version: "1.0.0", integrity }] }],
    });
    await env.keel(["market", "add", dir]);
    const run = await env.keel(["install", "kp-notify", "--yes"]);
    expect(run.stderr).toMatch(
      /the tarball of .*n\.tgz (does not have the expected sha512|has sha512 .* not the expected)/,
    );
    expect(run.code).toBe(1);
    expect((await env.keel(["list"])).stdout).toContain("No plugins installed.");
  });

  it("refuses a blocked version at install, and at load once a catalog update blocks the installed one", async () => {
    const env = marketEnv();
    await tarball(env, "n-1.0.0.tgz", { name: "kp-notify" });
    await tarball(env, "n-1.0.1.tgz", { name: "kp-notify", version: "1.0.1" });
    const versions = (blocked: string[]) =>
      ["1.0.0", "1.0.1"].map((version) => ({
        version,
        source: `../n-${version}.tgz`,
        ...(blocked.includes(version) ? { blocked: "known malicious: it uploads your API keys" } : {}),
      }));
    const catalog = (blocked: string[]) => ({
      name: "acme",
      owner,
      plugins: [{ name: "kp-notify", source: "../n-1.0.0.tgz", versions: versions(blocked) }],
    });
    const dir = catalogFile(env, "acme", catalog(["1.0.1"]));
    await env.keel(["market", "add", dir]);
    const refused = await env.keel(["install", "kp-notify@1.0.1", "--yes"]);
    expect(refused.stderr).toContain("version 1.0.1 is blocked (known malicious: it uploads your API keys)");
    expect(refused.code).toBe(1);
    expect((await env.keel(["install", "kp-notify", "--yes"])).stdout).toContain("installed kp-notify@1.0.0");
    expect((await env.keel(["kp-notify-version"])).stdout).toBe("kp-notify@1.0.0\n");

    catalogFile(env, "acme", catalog(["1.0.0", "1.0.1"]));
    expect((await env.keel(["market", "update"])).stdout).toBe('updated the catalog "acme" (1 plugins)\n');
    const load = await env.keel(["kp-notify-version"]);
    expect(load.stdout).not.toContain("kp-notify@1.0.0");
    expect(load.stderr).toContain(
      'plugin kp-notify@1.0.0: skipped: version 1.0.0 is blocked by the catalog "acme": known ' +
        "malicious: it uploads your API keys",
    );
  });

  it("reads a catalog in Claude Code's marketplace.json format", async () => {
    const env = marketEnv();
    await tarball(env, "n.tgz", { name: "kp-notify" });
    const dir = join(env.fixtures, "cc");
    mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
    writeFileSync(
      join(dir, ".claude-plugin", "marketplace.json"),
      JSON.stringify({
        name: "cc-market",
        owner: { name: "Someone", email: "someone@example.invalid" },
        metadata: { description: "a Claude Code marketplace", version: "1.0.0" },
        plugins: [
          { name: "kp-notify", source: "../n.tgz", description: "notifications", version: "1.0.0", tags: ["notify"] },
          { name: "from-github", source: { source: "github", repo: "acme/tools" }, description: "a repo" },
        ],
      }),
    );
    expect((await env.keel(["market", "add", dir])).stdout).toContain('added the catalog "cc-market" (2 plugins)');
    expect((await env.keel(["search", "notify"])).stdout).toBe("kp-notify@cc-market  notifications\n");
    expect((await env.keel(["info", "from-github", "--json"])).stdout).toContain(
      '"source": "git:https://github.com/acme/tools.git"',
    );
    expect((await env.keel(["install", "kp-notify", "--yes"])).code).toBe(0);
  });

  it("adds only the catalogs the managed settings allow", async () => {
    const env = marketEnv();
    const managed = join(env.fixtures, "managed.json");
    writeFileSync(managed, JSON.stringify({ plugins: { allowedCatalogs: ["company"] } }));
    const other = catalogFile(env, "other", { name: "other", owner, plugins: [] });
    const company = catalogFile(env, "company", { name: "company", owner, plugins: [] });
    const { runKeel } = await import("../../../test/support/keel-cli.ts");
    const run = (dir: string) => runKeel(["market", "add", dir], env, { extraEnv: { KEEL_MANAGED_SETTINGS: managed } });
    const refused = await run(other);
    expect(refused.stderr).toContain(`is not in plugins.allowedCatalogs of the managed settings (${managed})`);
    expect(refused.code).toBe(1);
    expect((await run(company)).stdout).toContain('added the catalog "company"');
  });
});
