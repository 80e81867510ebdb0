/**
 * What the installer refuses and what it never does, through the real binary: no lifecycle script runs (the
 * plugin's, a dependency's, a git repository's `prepare`), a changed file is refused at load, a tarball that
 * is not the catalog's is refused, an update asking for more asks again, and `keel -p` never loads any of it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type LocalRegistry } from "../../../test/support/local-registry.ts";
import { SCRIPTED } from "../../../test/support/keel-cli.ts";
import { gitCommit, marketEnv, packageDir, tarball } from "./support/market-env.ts";

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startRegistry();
}, 60_000);
afterAll(() => registry?.close());

describe("lifecycle scripts", () => {
  it("refuses a plugin with a postinstall script and never runs it", async () => {
    const env = marketEnv(registry);
    const marker = join(env.fixtures, "marker");
    const { path } = await tarball(env, "p.tgz", { name: "kp-scripted", scripts: { postinstall: `touch ${marker}` } });
    const run = await env.keel(["install", path, "--yes"]);
    expect(run.stderr).toContain("kp-scripted@1.0.0 has a postinstall script; keel never runs lifecycle scripts");
    expect(run.code).toBe(1);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(env.home, "plugins", "kp-scripted"))).toBe(false);
  });

  it("installs a dependency that has a postinstall script without running it, and says so", async () => {
    const env = marketEnv(registry);
    const marker = join(env.fixtures, "dep-marker");
    await registry.publish(
      packageDir(env, "d", { name: "kp-dep-scripted", scripts: { postinstall: `touch ${marker}` } }),
    );
    const { path } = await tarball(env, "p.tgz", { name: "kp-uses-dep", dependencies: { "kp-dep-scripted": "1.0.0" } });
    const run = await env.keel(["install", path, "--yes"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("the dependency kp-dep-scripted@1.0.0 has an install script; keel did not run it.");
    expect(
      existsSync(join(env.home, "plugins", "kp-uses-dep", "node_modules", "kp-dep-scripted", "package.json")),
    ).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it("installs a git source without running its prepare script", async () => {
    const env = marketEnv(registry);
    const marker = join(env.fixtures, "prepare-marker");
    const repo = join(env.fixtures, "repo");
    gitCommit(repo, { name: "kp-prepare", scripts: { prepare: `touch ${marker}` } });
    const run = await env.keel(["install", `git:file://${repo}#v1.0.0`, "--allow-git", "--yes"]);
    expect(run.code).toBe(0);
    expect((await env.keel(["kp-prepare-version"])).stdout).toBe("kp-prepare@1.0.0\n");
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a git source without --allow-git", async () => {
    const env = marketEnv(registry);
    const repo = join(env.fixtures, "repo");
    gitCommit(repo, { name: "kp-git" });
    const run = await env.keel(["install", `git:file://${repo}`, "--yes"]);
    expect(run.stderr).toContain("git sources are opt-in; add --allow-git");
    expect(run.code).toBe(1);
  });
});

describe("scopes", () => {
  it("refuses to change an untrusted project's plugins", async () => {
    const env = marketEnv(registry);
    const { path } = await tarball(env, "p.tgz", { name: "kp-project" });
    mkdirSync(join(env.cwd, ".keel"));
    writeFileSync(join(env.cwd, ".keel", "settings.json"), JSON.stringify({ systemPrompt: "from a stranger" }));
    const run = await env.keel(["install", path, "--project", "--yes"]);
    expect(run.stderr).toContain(`${env.cwd} is not trusted, so its plugins cannot be changed; trust it first`);
    expect(run.code).toBe(1);
    expect(existsSync(join(env.cwd, ".keel", "plugins"))).toBe(false);
  });
});

describe("verification at load", () => {
  it("refuses a plugin with one byte changed, naming it and how to reinstall", async () => {
    const env = marketEnv(registry);
    const { path } = await tarball(env, "p.tgz", { name: "kp-tamper" });
    expect((await env.keel(["install", path, "--yes"])).code).toBe(0);
    expect((await env.keel(["kp-tamper-version"])).stdout).toBe("kp-tamper@1.0.0\n");
    const file = join(env.home, "plugins", "kp-tamper", "index.ts");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace("says which version", "says which versiom"));
    const run = await env.keel(["kp-tamper-version"]);
    expect(run.stdout).not.toContain("kp-tamper@1.0.0");
    expect(run.stderr).toContain(
      `keel: plugin kp-tamper@1.0.0: skipped: its files ` +
        `in ${join(env.home, "plugins", "kp-tamper")} changed since it was installed`,
    );
    expect(run.stderr).toContain(`Reinstall it with \`keel install file:${path}\``);
    writeFileSync(file, text);
    expect((await env.keel(["kp-tamper-version"])).stdout).toBe("kp-tamper@1.0.0\n");
  });

  it("does not load the installer for keel -p", async () => {
    const env = marketEnv(registry);
    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([{ text: "done" }]));
    const run = await env.keel([...SCRIPTED, "-p", "hi"]);
    const traced = await (
      await import("../../../test/support/keel-cli.ts")
    ).runKeel([...SCRIPTED, "-p", "hi"], env, {
      extraEnv: { KEEL_TRACE: "1" },
    });
    expect(run.stdout).toBe("done\n");
    expect(traced.stderr).toContain("loaded @keel/plugin-ui-print");
    expect(traced.stderr).not.toContain("@keel/plugin-marketplace");
  });
});

describe("dependsOn", () => {
  it("installs a missing dependency plugin too, after asking", async () => {
    const env = marketEnv(registry);
    await registry.publish(packageDir(env, "base", { name: "kp-base", version: "1.2.0" }));
    await registry.publish(packageDir(env, "child", { name: "kp-child", dependsOn: { "kp-base": "^1.1.0" } }));
    const declined = await env.keel(["install", "npm:kp-child"], "n\n");
    expect(declined.stderr).toContain("kp-child@1.0.0 depends on the plugin kp-base (^1.1.0), which is not installed");
    expect(declined.stderr).toContain("Install kp-base (^1.1.0) too? [y/N]");
    expect(declined.code).toBe(1);
    const run = await env.keel(["install", "npm:kp-child"], "y\ny\ny\n");
    expect(run.code).toBe(0);
    expect((await env.keel(["list"])).stdout).toMatch(/^kp-base@1\.2\.0 .*\n^kp-child@1\.0\.0 /m);
  }, 60_000);
});

describe("updates", () => {
  it("keeps the previous version working when the new one's dependencies cannot be installed", async () => {
    const env = marketEnv(registry);
    await registry.publish(packageDir(env, "b1", { name: "kp-breaks" }));
    expect((await env.keel(["install", "npm:kp-breaks", "--yes"])).code).toBe(0);
    await registry.publish(
      packageDir(env, "b2", { name: "kp-breaks", version: "1.1.0", dependencies: { "kp-never-published": "^1.0.0" } }),
    );
    const run = await env.keel(["update", "kp-breaks", "--yes"]);
    expect(run.stderr).toContain("kp-never-published");
    expect(run.code).toBe(1);
    expect((await env.keel(["kp-breaks-version"])).stdout).toBe("kp-breaks@1.0.0\n");
    expect((await env.keel(["list"])).stdout).toMatch(/^kp-breaks@1\.0\.0  user  lazy  /m);
  }, 60_000);

  it("asks again when an update declares more capabilities or hooks, and keeps the old version on no", async () => {
    const env = marketEnv(registry);
    await registry.publish(packageDir(env, "a1", { name: "kp-grows", capabilities: ["fs:read"] }));
    expect((await env.keel(["install", "npm:kp-grows@*", "--yes"])).code).toBe(0);
    await registry.publish(packageDir(env, "a2", { name: "kp-grows", version: "1.1.0", capabilities: ["fs:read"] }));
    const quiet = await env.keel(["update", "kp-grows"]);
    expect(quiet.stdout).toBe("updated kp-grows: 1.0.0 → 1.1.0\n");
    expect(quiet.stderr).not.toContain("[y/N]");
    await registry.publish(
      packageDir(env, "a3", {
        name: "kp-grows",
        version: "2.0.0",
        capabilities: ["fs:read", "net:*"],
        hooks: ["tool_call"],
      }),
    );
    const asked = await env.keel(["update", "kp-grows"], "n\n");
    expect(asked.stderr).toContain("replaces 1.1.0; asks for more: capability net:*, hook tool_call");
    expect(asked.stderr).toContain("Update kp-grows? [y/N]");
    expect(asked.stdout).toBe("not updated (declined): kp-grows\n");
    expect((await env.keel(["kp-grows-version"])).stdout).toBe("kp-grows@1.1.0\n");
    expect((await env.keel(["update", "kp-grows"], "y\n")).stdout).toBe("updated kp-grows: 1.1.0 → 2.0.0\n");
    expect((await env.keel(["update", "--rollback", "kp-grows"])).stdout).toBe("rolled back kp-grows to 1.1.0\n");
    expect((await env.keel(["kp-grows-version"])).stdout).toBe("kp-grows@1.1.0\n");
  }, 90_000);
});
