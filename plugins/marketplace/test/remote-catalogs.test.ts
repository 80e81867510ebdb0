/**
 * Relative plugin sources in catalogs that are not on disk: a git catalog's resolve inside its repository (a
 * git source, so `--allow-git` is needed as for any git install), an http catalog's beside its URL (a tarball
 * URL, so `--allow-remote`). The repository is local and the server listens on 127.0.0.1.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writePackage } from "../../../libs/installer/test/support/packages.ts";
import { git, marketEnv, tarball } from "./support/market-env.ts";

const owner = { name: "Keel Tests" };
/** Files served by URL path. */
const served = new Map<string, string | Buffer>();
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served.get(req.url ?? "");
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("relative sources in catalogs from git and from a URL", () => {
  it("resolves a git catalog's relative source inside its repository, behind --allow-git", async () => {
    const env = marketEnv();
    const repo = join(env.fixtures, "catalog-repo");
    writePackage(join(repo, "plugins", "kp-greet"), { name: "kp-greet" });
    const plugins = [{ name: "kp-greet", source: "./plugins/kp-greet" }];
    writeFileSync(join(repo, "marketplace.json"), JSON.stringify({ name: "team", owner, plugins }));
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@keel.invalid", "commit", "-q", "-m", "catalog");
    expect((await env.keel(["market", "add", `git:file://${repo}`, "--allow-git"])).code).toBe(0);

    const refused = await env.keel(["install", "kp-greet", "--yes"]);
    expect(refused.stderr).toContain(`git:file://${repo}#path:plugins/kp-greet: git sources are opt-in`);
    expect(refused.code).toBe(1);
    const installed = await env.keel(["install", "kp-greet", "--yes", "--allow-git"]);
    expect(installed.stderr).toContain('kp-greet: found in the catalog "team"');
    expect(installed.code).toBe(0);
    expect((await env.keel(["kp-greet-version"])).stdout).toBe("kp-greet@1.0.0\n");
  }, 120_000);

  it("resolves an http catalog's relative source beside its URL, behind --allow-remote", async () => {
    const env = marketEnv();
    const { path, integrity } = await tarball(env, "kp-web-1.0.0.tgz", { name: "kp-web" });
    served.set("/catalogs/kp-web-1.0.0.tgz", readFileSync(path));
    const plugins = [{ name: "kp-web", source: "./kp-web-1.0.0.tgz", versions: [{ version: "1.0.0", integrity }] }];
    served.set("/catalogs/marketplace.json", JSON.stringify({ name: "web", owner, plugins }));
    expect((await env.keel(["market", "add", `${base}/catalogs/marketplace.json`])).code).toBe(0);

    const refused = await env.keel(["install", "kp-web", "--yes"]);
    expect(refused.stderr).toContain(`${base}/catalogs/kp-web-1.0.0.tgz: tarballs from a URL are opt-in`);
    expect(refused.code).toBe(1);
    const installed = await env.keel(["install", "kp-web", "--yes", "--allow-remote"]);
    expect(installed.code).toBe(0);
    expect((await env.keel(["kp-web-version"])).stdout).toBe("kp-web@1.0.0\n");
  }, 120_000);
});
