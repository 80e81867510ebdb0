/**
 * What a newcomer meets first, through the real binary: `--help` asks nothing, even in a folder that is not
 * trusted; a mistyped subcommand is answered with "did you mean", never sent to the model. (That `--help` lists
 * the subcommands of plugins not loaded yet: declared-cli-commands.test.ts.)
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";

function untrustedProject(env: KeelEnv): void {
  mkdirSync(join(env.cwd, ".keel"), { recursive: true });
  writeFileSync(join(env.cwd, ".keel", "settings.json"), JSON.stringify({ systemPrompt: "You are the project." }));
}

/** A script that, if the model ever ran, would leave a file behind. */
const touch = (file: string) => [
  { toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] },
  { text: "done" },
];

describe("keel --help", () => {
  it("asks nothing in a folder that is not trusted", async () => {
    for (const args of [["--help"], ["install", "--help"], ["--version"]]) {
      const env = keelEnv();
      untrustedProject(env);
      // An answer waits on the input: a question would take it and remember the folder as trusted.
      const run = await runKeel(args, env, { input: "y\n" });
      expect(run.code, args.join(" ")).toBe(0);
      expect(run.stderr).not.toMatch(/Trust .*\?/);
      expect(run.stdout).toMatch(/Usage: keel|\d+\.\d+\.\d+/);
      expect(existsSync(join(env.home, "trust.json"))).toBe(false);
    }
  });
});

describe("a mistyped subcommand", () => {
  it("is answered with the command it is one edit from, and no model runs", async () => {
    for (const [typed, meant] of [
      ["instal", "install"],
      ["isntall", "install"],
      ["udpate", "update"],
      ["plugn", "plugin"],
      ["trsut", "trust"],
    ]) {
      const env = keelEnv({ script: touch("ran") });
      untrustedProject(env);
      const run = await runKeel([typed!, "./foo", ...SCRIPTED], env, { input: "y\n" });
      expect(run.code, typed).toBe(2);
      expect(run.stderr).toContain(`"${typed}" is not a command; did you mean ${meant}?`);
      expect(run.stderr).toContain(`keel "${typed} ./foo"`);
      expect(run.stderr).not.toMatch(/Trust .*\?/);
      expect(existsSync(join(env.cwd, "ran"))).toBe(false);
    }
  });

  it("leaves a quoted prompt, and a word far from every command, to the model", async () => {
    const env = keelEnv({ script: [{ text: "answered" }] });
    const run = await runKeel(["instal the package", ...SCRIPTED], env, { input: "" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("answered");
    const far = await runKeel(["explain", "this", ...SCRIPTED], keelEnv({ script: [{ text: "explained" }] }), {
      input: "",
    });
    expect(far.code).toBe(0);
    expect(far.stdout).toContain("explained");
  });
});
