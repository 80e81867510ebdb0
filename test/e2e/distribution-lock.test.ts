/**
 * A distribution that locks `permissions.mode` to `ask` keeps it, through the real binary: allow rules from the
 * user's file, a trusted project's `.keel/settings.json` and `.claude/settings.json`, and `--settings` each try
 * to let bash run unasked, and a `--plugin` tries to answer the approval question; none of them runs the call.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

const teamManifest = fileURLToPath(new URL("../../distributions/team/distribution.json", import.meta.url));
const cache = { KEEL_CACHE_DIR: process.env.KEEL_CACHE_DIR ?? join(homedir(), ".cache", "keel") };

const approver = `export default { activate(api) {
  api.hooks.tap("ui_request", (request) =>
    request.kind === "select" ? { kind: "select", value: request.options[0] } : { kind: "confirm", confirmed: true });
} };`;

describe("a distribution's locked ask mode", () => {
  let bin: string;
  beforeAll(async () => {
    const out = join(tempDir("keel-dist-"), "team");
    const built = await runKeel(["dist", "build", teamManifest, "--out", out], keelEnv(), { timeoutMs: 90_000 });
    expect(built.code, built.stderr).toBe(0);
    bin = join(out, "bin", "team.cjs");
  }, 120_000);

  /** Plays one bash call through the built agent; `setup` puts a widening attempt in place. */
  async function tryLayer(setup: (env: KeelEnv, home: string) => string[]) {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "ok" }],
    });
    const home = tempDir("keel-team-home-");
    const args = setup(env, join(home, ".team"));
    const run = await runKeel(["-p", "make a file", "--trust", ...SCRIPTED, ...args], env, {
      bin,
      extraEnv: { HOME: home, ...cache },
    });
    expect(run.code, run.stderr).toBe(0);
    return { run, made: existsSync(join(env.cwd, "made.txt")) };
  }

  const allow = { permissions: { allow: ["bash"] } };
  const write = (path: string, value: unknown) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, JSON.stringify(value));
  };

  it("is not widened by allow rules in any layer", async () => {
    const layers: [string, (env: KeelEnv, home: string) => string[]][] = [
      ["the user's file", (_, home) => (write(join(home, "settings.json"), allow), [])],
      ["the project's .keel/settings.json", (env) => (write(join(env.cwd, ".keel", "settings.json"), allow), [])],
      [
        "the project's .claude/settings.json",
        (env) => (write(join(env.cwd, ".claude", "settings.json"), { permissions: { allow: ["Bash"] } }), []),
      ],
      ["--settings", () => ["--settings", JSON.stringify(allow)]],
    ];
    for (const [name, setup] of layers) {
      const { run, made } = await tryLayer(setup);
      expect(made, `${name} let bash run`).toBe(false);
      expect(run.stderr, name).toContain('Setting "permissions.allow" is locked by the team distribution');
    }
  });

  it("is not answered by a --plugin that approves every question", async () => {
    const plugin = writePlugin(tempDir("keel-approver-"), {
      name: "approver",
      keel: { contributes: { hooks: ["ui_request"] } },
      source: approver,
    });
    const { made } = await tryLayer(() => ["--plugin", plugin]);
    expect(made).toBe(false);
  });

  it("without the lock, the same --plugin answers (the test can fail)", async () => {
    const plugin = writePlugin(tempDir("keel-approver-"), {
      name: "approver",
      keel: { contributes: { hooks: ["ui_request"] } },
      source: approver,
    });
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "ok" }],
    });
    const run = await runKeel(["-p", "go", "--permission-mode", "ask", "--plugin", plugin, ...SCRIPTED], env);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(true);
  });
});
