/**
 * Every kind of source through the real binary: install, list, disable, enable, update, remove; and the
 * fixture's own command shows which version actually runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type LocalRegistry } from "../../../test/support/local-registry.ts";
import { packTarball } from "../../../libs/installer/test/support/packages.ts";
import { gitCommit, marketEnv, packageDir, type MarketEnv } from "./support/market-env.ts";

let registry: LocalRegistry;
/** Serves files of `served` by name over http on 127.0.0.1: the remote-URL source kind. */
const served = new Map<string, string>();
let files: Server;
let filesUrl: string;
beforeAll(async () => {
  registry = await startRegistry();
  files = createServer((req, res) => {
    const file = served.get(req.url ?? "");
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await registry?.close();
  files?.close();
});

interface Kind {
  kind: string;
  name: string;
  /** Makes version 1.0.0 available and returns the source to install, with extra flags. */
  v1(env: MarketEnv): Promise<string[]>;
  /** Makes version 2.0.0 available where `keel update` looks. */
  v2(env: MarketEnv): Promise<void>;
}

const KINDS: Kind[] = [
  {
    kind: "a tarball",
    name: "kp-tarball",
    async v1(env) {
      await packTarball(packageDir(env, "t1", { name: "kp-tarball" }), join(env.fixtures, "kp.tgz"));
      return [join(env.fixtures, "kp.tgz")];
    },
    async v2(env) {
      await packTarball(packageDir(env, "t2", { name: "kp-tarball", version: "2.0.0" }), join(env.fixtures, "kp.tgz"));
    },
  },
  {
    kind: "a tarball URL (opt-in)",
    name: "kp-remote",
    async v1(env) {
      await packTarball(packageDir(env, "r1", { name: "kp-remote" }), join(env.fixtures, "remote.tgz"));
      served.set("/kp-remote.tgz", join(env.fixtures, "remote.tgz"));
      return [`${filesUrl}/kp-remote.tgz`, "--allow-remote"];
    },
    async v2(env) {
      await packTarball(
        packageDir(env, "r2", { name: "kp-remote", version: "2.0.0" }),
        join(env.fixtures, "remote.tgz"),
      );
    },
  },
  {
    kind: "a local folder (linked)",
    name: "kp-folder",
    async v1(env) {
      return [packageDir(env, "kp-folder", { name: "kp-folder" })];
    },
    async v2(env) {
      packageDir(env, "kp-folder", { name: "kp-folder", version: "2.0.0" });
    },
  },
  {
    kind: "an npm package from the registry",
    name: "@kp/npm-plugin",
    async v1(env) {
      await registry.publish(packageDir(env, "n1", { name: "@kp/npm-plugin" }));
      return ["npm:@kp/npm-plugin@^1 || ^2"];
    },
    async v2(env) {
      await registry.publish(packageDir(env, "n2", { name: "@kp/npm-plugin", version: "2.0.0" }));
    },
  },
  {
    kind: "a git repository (file://)",
    name: "kp-git",
    async v1(env) {
      gitCommit(join(env.fixtures, "repo"), { name: "kp-git" });
      return [`git:file://${join(env.fixtures, "repo")}#main`, "--allow-git"];
    },
    async v2(env) {
      gitCommit(join(env.fixtures, "repo"), { name: "kp-git", version: "2.0.0" });
    },
  },
];

describe.each(KINDS)("installing from $kind", ({ name, v1, v2 }) => {
  const command = `${name.replace(/^@/, "").replace(/\//g, "-")}-version`;

  it("installs, lists, disables, enables, updates and removes", async () => {
    const env = marketEnv(registry);
    const source = await v1(env);
    const installed = await env.keel(["install", ...source, "--yes"]);
    expect(installed.stderr).toContain(`${name}@1.0.0 from`);
    expect(installed.stdout).toContain(`installed ${name}@1.0.0`);
    expect(installed.code).toBe(0);
    expect((await env.keel([command])).stdout).toBe(`${name}@1.0.0\n`);
    expect((await env.keel(["list"])).stdout).toMatch(new RegExp(`^${name}@1\\.0\\.0  user  lazy  `, "m"));

    expect((await env.keel(["disable", name])).code).toBe(0);
    expect((await env.keel(["list"])).stdout).toMatch(new RegExp(`^${name}@1\\.0\\.0  user  disabled  `, "m"));
    expect((await env.keel([command])).stdout).not.toContain(`${name}@`);
    expect((await env.keel(["enable", name])).code).toBe(0);
    expect((await env.keel([command])).stdout).toBe(`${name}@1.0.0\n`);

    await v2(env);
    const updated = await env.keel(["update", name, "--yes"]);
    expect(updated.code).toBe(0);
    expect((await env.keel([command])).stdout).toBe(`${name}@2.0.0\n`);

    const removed = await env.keel(["remove", name]);
    expect(removed.stdout).toMatch(new RegExp(`^removed ${name}:\n`));
    expect((await env.keel(["list"])).stdout).toContain("No plugins installed.");
    expect((await env.keel([command])).stdout).not.toContain(`${name}@`);
  }, 120_000);
});

describe("a project's keel.lock", () => {
  it("reproduces the same plugins, at the same versions and trees, in a fresh clone", async () => {
    const env = marketEnv(registry);
    await registry.publish(packageDir(env, "dep", { name: "kp-dep", version: "1.0.0" }));
    await registry.publish(
      packageDir(env, "with-dep", { name: "kp-with-dep", dependencies: { "kp-dep": "^1.0.0", zod: "^4" } }),
    );
    await registry.publish(packageDir(env, "dep2", { name: "kp-dep", version: "1.1.0" }));
    expect((await env.keel(["install", "npm:kp-with-dep", "--project", "--yes"])).code).toBe(0);
    gitCommit(join(env.fixtures, "repo"), { name: "kp-git" });
    // The project now has plugins, which are project configuration; keel's own install kept it trusted, and
    // --trust (this run only) would do if it had not.
    const git = await env.keel([
      "install",
      `git:file://${join(env.fixtures, "repo")}#v1.0.0`,
      "--allow-git",
      "--project",
      "--yes",
      "--trust",
    ]);
    expect(git.code).toBe(0);
    const lockText = (await import("node:fs")).readFileSync(join(env.cwd, ".keel", "keel.lock"), "utf8");
    const lock = JSON.parse(lockText);
    expect(Object.keys(lock.plugins)).toEqual(["kp-git", "kp-with-dep"]);
    expect(Object.keys(lock.plugins["kp-with-dep"].packages)).toEqual(["node_modules/kp-dep"]);

    // A newer kp-dep is published after the lock was written: the clone still gets the locked 1.1.0 tree.
    await registry.publish(packageDir(env, "dep3", { name: "kp-dep", version: "1.2.0" }));
    const clone = marketEnv(registry);
    (await import("node:fs")).mkdirSync(join(clone.cwd, ".keel"));
    writeFileSync(join(clone.cwd, ".keel", "keel.lock"), lockText);
    const synced = await clone.keel(["install", "--project", "--yes"]);
    expect(synced.stdout).toBe("installed: kp-git\ninstalled: kp-with-dep\n");
    expect(synced.code).toBe(0);
    const again = JSON.parse((await import("node:fs")).readFileSync(join(clone.cwd, ".keel", "keel.lock"), "utf8"));
    for (const name of ["kp-git", "kp-with-dep"]) expect(again.plugins[name].tree).toBe(lock.plugins[name].tree);
    expect((await clone.keel(["install", "--project", "--trust"])).stdout).toBe(
      "up to date: kp-git\nup to date: kp-with-dep\n",
    );
  }, 120_000);
});
