/**
 * CLI commands declared in full in a manifest (`{ name, description, arguments }`): `keel --help` lists them
 * while their plugin stays unloaded, `keel <name>` loads it and runs what it registered, a registration that
 * says something else than its declaration is warned about, and the command reached after an option whose
 * value the first scan could not know says how to run it instead of becoming a prompt. keel's own plugins'
 * commands are all listed.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { writePlugin } from "../support/plugin-fixtures.ts";

/** A plugin whose `greet` command is declared as `declared`; loading it leaves a `loaded` file in the workspace. */
function greeter(env: KeelEnv, declared: Record<string, unknown>, registeredDescription = "greets someone"): string {
  const source = `import { writeFileSync } from "node:fs";
    import { definePlugin } from "@keel/extensions-api";
    writeFileSync("loaded", "");
    export default definePlugin({ activate(api) {
      api.registerCliCommand({ name: "greet", description: ${JSON.stringify(registeredDescription)},
        arguments: "<who>",
        run(args, _opts, ctx) { ctx.stdout("hello " + args[0] + "\\n"); return 3; } });
    } });`;
  return writePlugin(env.cwd, { name: "greeter", keel: { contributes: { cliCommands: [declared] } }, source });
}

const GREET = { name: "greet", description: "greets someone", arguments: "<who>" };

describe("CLI commands declared in full", () => {
  it("are listed by --help with their arguments and description, and their plugin is not loaded for it", async () => {
    const env = keelEnv();
    const dir = greeter(env, GREET);
    const help = await runKeel(["--help", "--plugin", dir], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}greet <who> +greets someone$/m);
    expect(existsSync(join(env.cwd, "loaded"))).toBe(false);
  });

  it("load their plugin when named first, and run what it registered", async () => {
    const env = keelEnv();
    const dir = greeter(env, GREET);
    const run = await runKeel(["greet", "bob", "--plugin", dir], env);
    expect(run).toMatchObject({ code: 3, stdout: "hello bob\n", stderr: "" });
    expect(existsSync(join(env.cwd, "loaded"))).toBe(true);
  });

  it("warn when the plugin registers another description or arguments than it declares", async () => {
    const env = keelEnv();
    const dir = greeter(env, GREET, "says hello");
    const run = await runKeel(["greet", "bob", "--plugin", dir], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'registered CLI command "greet" with another description than its declaration in keel.contributes.cliCommands ' +
        '("greets someone")',
    );
  });

  it("say how to run one named after an option's value, instead of taking its name as a prompt", async () => {
    const env = keelEnv();
    const dir = greeter(env, GREET);
    const run = await runKeel(["--permission-mode", "full", "greet", "bob", "--plugin", dir], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'keel: "greet" comes from a plugin that loads when it is the first word: run `keel greet [options]`, ' +
        "with every option after it.\n",
    );
  });

  it("refuse a declaration that is not a command word or lacks its description, naming the plugin", async () => {
    const env = keelEnv();
    const bad = greeter(env, { name: "Greet Me", description: "" });
    const run = await runKeel(["plugins", "--plugin", bad], env);
    expect(run.stderr).toMatch(/greeter.*cliCommands.*lowercase word/s);
    expect(run.stderr).toMatch(/greeter.*cliCommands.*description/s);
  });

  it("list every CLI command of keel's own plugins in --help", async () => {
    const help = await runKeel(["--help"], keelEnv());
    for (const line of [
      /^ {2}serve +serve sessions and the web UI over HTTP/m,
      /^ {2}batch <tasks\.jsonl> +run every task of a JSONL file/m,
      /^ {2}worker +take batch jobs from a Redis queue/m,
      /^ {2}install \[source\] +install a plugin/m,
      /^ {2}dist <action> <manifest> \[args\.\.\.\] +build an agent/m,
      /^ {2}plugin <action> \[target\] +write a new plugin package/m,
      /^ {2}acp +serve the Agent Client Protocol/m,
    ])
      expect(help.stdout).toMatch(line);
  });
});
