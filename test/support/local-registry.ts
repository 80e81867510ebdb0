/**
 * A real npm registry for the tests: verdaccio on 127.0.0.1 at a free port, with its own storage and config in
 * a temp folder and no uplink (nothing is fetched from the internet), and `npm publish` to put fixture
 * packages in it. Anyone may read and publish; the token npm insists on is a placeholder.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./plugin-fixtures.ts";

const run = promisify(execFile);

export interface LocalRegistry {
  url: string;
  /** `npm publish` of the package in `dir`, with no script run. */
  publish(dir: string): Promise<void>;
  /** Moves a published version's date (the packument's `time`) to `date`, as if published then. */
  backdate(name: string, version: string, date: Date): void;
  close(): Promise<void>;
}

export async function startRegistry(): Promise<LocalRegistry> {
  const root = tempDir("keel-registry-");
  const storage = join(root, "storage");
  mkdirSync(storage);
  const { runServer } = await import("verdaccio");
  const server = (await runServer({
    self_path: root,
    storage,
    uplinks: {},
    packages: { "**": { access: "$all", publish: "$all", unpublish: "$all" } },
    log: { type: "stdout", format: "pretty", level: "error" },
    web: { enable: false },
    security: { api: { legacy: true } },
  } as never)) as Server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const npmrc = join(root, ".npmrc");
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=keel-tests\n`);
  return {
    url,
    async publish(dir) {
      await run("npm", ["publish", "--ignore-scripts", "--registry", url, "--userconfig", npmrc], {
        cwd: dir,
        env: { ...process.env, npm_config_cache: join(root, "npm-cache") },
      });
    },
    backdate(name, version, date) {
      // verdaccio's local storage keeps each package's packument in storage/<name>/package.json, read per request.
      const file = join(storage, name, "package.json");
      const packument = JSON.parse(readFileSync(file, "utf8")) as { time: Record<string, string> };
      packument.time[version] = date.toISOString();
      writeFileSync(file, JSON.stringify(packument));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
