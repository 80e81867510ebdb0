/**
 * A distribution whose plugin comes from the npm registry (verdaccio on 127.0.0.1): `keel dist build` installs
 * it through keel's installer into the built folder's own scope, locked with its tree's sha512; the built agent
 * runs its tool, and refuses to load it once one byte of it changed.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { startRegistry, type LocalRegistry } from "../support/local-registry.ts";
import { ACME_ECHO, tempDir, writePlugin } from "../support/plugin-fixtures.ts";

const cache = { KEEL_CACHE_DIR: process.env.KEEL_CACHE_DIR ?? join(homedir(), ".cache", "keel") };
let registry: LocalRegistry;

beforeAll(async () => {
  registry = await startRegistry();
  await registry.publish(writePlugin(tempDir(), ACME_ECHO));
}, 60_000);

afterAll(() => registry?.close());

describe("keel dist build with a plugin from npm", () => {
  it("installs it locked into the folder, runs its tool, and refuses it once changed", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "echo", arguments: { text: "hi" } }] }, { text: "done" }],
    });
    writeFileSync(join(env.home, "settings.json"), JSON.stringify({ marketplace: { registry: registry.url } }));
    const manifest = join(env.cwd, "distribution.json");
    writeFileSync(
      manifest,
      JSON.stringify({
        name: "acme-echoer",
        command: "echoer",
        version: "1.0.0",
        plugins: [
          { name: "@keel/plugin-provider-scripted", version: "1.0.0" },
          { name: "@keel/plugin-session-jsonl", version: "1.0.0" },
          { name: "@keel/plugin-ui-print", version: "1.0.0" },
          { name: "acme-echo", version: "1.2.0", source: "npm" },
        ],
      }),
    );
    const out = join(tempDir("keel-dist-npm-"), "echoer");
    const built = await runKeel(["dist", "build", manifest, "--out", out], env, { timeoutMs: 60_000 });
    expect(built.stderr).toContain("dist: acme-echo@1.2.0 from npm:acme-echo@1.2.0: capabilities none");
    expect(built.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(out, "bundled", "keel.lock"), "utf8"));
    expect(lock.plugins["acme-echo"]).toMatchObject({ version: "1.2.0", tree: expect.stringMatching(/^sha512-/) });

    const home = tempDir("keel-dist-npm-home-");
    const bin = join(out, "bin", "echoer.cjs");
    const ran = await runKeel(["-p", "echo hi", "--mode", "json", ...SCRIPTED], env, {
      bin,
      extraEnv: { HOME: home, ...cache },
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("echo: hi");

    appendFileSync(join(out, "bundled", "plugins", "acme-echo", "index.ts"), " ");
    const tampered = await runKeel(["-p", "echo hi", ...SCRIPTED], env, { bin, extraEnv: { HOME: home, ...cache } });
    expect(tampered.stderr).toMatch(/echoer: plugin acme-echo@1\.2\.0: .*changed/);
    expect(existsSync(join(home, ".keel"))).toBe(false);
  }, 120_000);
});
