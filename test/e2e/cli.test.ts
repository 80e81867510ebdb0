import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ECHO_TOOL_SOURCE, writePlugin } from "../support/plugin-fixtures.ts";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

describe("the keel command", () => {
  it("prints its version", async () => {
    const env = keelEnv();
    const run = await runKeel(["--version"], env);
    expect(run).toMatchObject({ code: 0, stdout: "0.1.0\n" });
  });

  it("prints the final answer with -p and exits 0", async () => {
    const env = keelEnv({ script: [{ thinking: "easy", text: "Hello from the script." }] });
    const run = await runKeel(["-p", "say hello", ...SCRIPTED], env);
    expect(run).toMatchObject({ code: 0, stdout: "Hello from the script.\n", stderr: "" });
  });

  it("exits non-zero with the reason when the run fails", async () => {
    const env = keelEnv({ script: [{ text: "half", error: "upstream overloaded" }] });
    const run = await runKeel(["-p", "go", ...SCRIPTED], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("keel: the run ended (error): upstream overloaded\n");
  });

  it("says clearly when no provider is ready, before any request", async () => {
    const env = keelEnv();
    const run = await runKeel(["-p", "go", "--provider", "scripted"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The scripted provider needs a script/);
  });

  it("works in the folder --cwd names", async () => {
    const env = keelEnv({ script: [{ text: "from elsewhere" }] });
    const run = await runKeel(["-p", "go", ...SCRIPTED, "--cwd", env.cwd], { ...env, cwd: env.home });
    expect(run).toMatchObject({ code: 0, stdout: "from elsewhere\n" });
  });

  it("prints every event as a JSON line with --mode json", async () => {
    const env = keelEnv({ script: [{ text: "ok" }] });
    const run = await runKeel(["-p", "go", "--mode", "json", ...SCRIPTED], env);
    expect(run.code).toBe(0);
    const types = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).type);
    expect(types[0]).toBe("session_start");
    expect(types).toContain("agent_start");
    expect(types).toContain("message_update");
    // A lazily loaded backend may still report its activation after the session ended; the run's own events end
    // with agent_end and session_end.
    expect(types.filter((type) => !type.startsWith("plugin_")).slice(-2)).toEqual(["agent_end", "session_end"]);
    const update = JSON.parse(run.stdout.split("\n").find((line) => line.includes('"message_update"'))!);
    expect(update).toEqual({ type: "message_update", delta: { type: "text_start", index: 0 } });
  });

  it("loads --plugin folders, reports a broken one by name, and still runs", async () => {
    const env = keelEnv({ script: [{ toolCalls: [{ name: "echo", arguments: { text: "hi" } }] }, { text: "done" }] });
    const good = writePlugin(env.cwd, {
      name: "cli-echo",
      keel: { contributes: { tools: ["echo"] } },
      source: ECHO_TOOL_SOURCE,
    });
    const bad = writePlugin(env.cwd, {
      name: "cli-broken",
      keel: { activation: ["onStartup"] },
      source: "throw new Error('kaboom at import')",
    });
    const run = await runKeel(["-p", "go", "--plugin", good, "--plugin", bad, "--mode", "json", ...SCRIPTED], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^keel: plugin cli-broken@1.0.0: skipped: its entry .* failed to load: kaboom at import$/m,
    );
    expect(run.stdout).toContain('"text":"echo: hi"');
  });

  it("lists plugins with their state and contributions as JSON", async () => {
    const env = keelEnv();
    const run = await runKeel(["plugins", "--json"], env);
    expect(run.code).toBe(0);
    const plugins = JSON.parse(run.stdout) as {
      name: string;
      state: string;
      source: string;
      contributes: { providers: string[] };
    }[];
    const scripted = plugins.find((p) => p.name === "@keel/plugin-provider-scripted")!;
    expect(scripted).toMatchObject({ state: "lazy", source: "distribution" });
    expect(scripted.contributes.providers).toEqual(["scripted"]);
  });

  it("loads plugins from KEEL_HOME/plugins, and skips them in --safe-mode", async () => {
    const env = keelEnv();
    mkdirSync(join(env.home, "plugins"), { recursive: true });
    writePlugin(join(env.home, "plugins"), {
      name: "user-echo",
      keel: { contributes: { tools: ["echo"] } },
      source: ECHO_TOOL_SOURCE,
    });
    const normal = JSON.parse((await runKeel(["plugins", "--json"], env)).stdout) as { name: string; source: string }[];
    expect(normal.find((p) => p.name === "user-echo")).toMatchObject({ source: "user" });
    const safe = JSON.parse((await runKeel(["plugins", "--json", "--safe-mode"], env)).stdout) as { name: string }[];
    expect(safe.some((p) => p.name === "user-echo")).toBe(false);
  });

  it("lets plugins add flags and subcommands", async () => {
    const env = keelEnv();
    const source = `import { definePlugin } from "@keel/extensions-api";
      export default definePlugin({ activate(api) {
        api.registerFlag({ name: "shout", description: "louder", type: "boolean" });
        api.registerCliCommand({ name: "greet", description: "greets", arguments: "<who>",
          options: [{ name: "loud", description: "loud", type: "boolean" }],
          run(args, opts, ctx) { ctx.stdout((opts.loud ? "HELLO " : "hello ") + args[0] + "\\n"); return 3; } });
      } });`;
    const dir = writePlugin(env.cwd, {
      name: "greeter",
      keel: { contributes: { flags: ["shout"], cliCommands: ["greet"] } },
      source,
    });
    const run = await runKeel(["greet", "bob", "--loud", "--plugin", dir], env);
    expect(run).toMatchObject({ code: 3, stdout: "HELLO bob\n" });
    const help = await runKeel(["--help", "--plugin", dir], env);
    expect(help.stdout).toContain("--shout");
  });

  it(
    "chats line by line without -p: answers stream to stdout, unknown commands are explained, " + "/exit ends",
    async () => {
      const env = keelEnv({ script: [{ text: "First answer." }, { text: "Second answer." }] });
      const run = await runKeel([...SCRIPTED], env, { input: "hello\n/nope\nagain\n/exit\nnever sent\n" });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("First answer.\nSecond answer.\n");
      expect(run.stderr).toMatch(/^Unknown command \/nope\. Commands: .*\/compact.*, \/exit\.$/m);
    },
  );

  it("says which modes exist when asked for one that does not", async () => {
    const env = keelEnv();
    const run = await runKeel(["--mode", "fancy", "hi"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no "fancy" mode is installed \(installed: text, json, interactive(, [\w-]+)*\)/);
  });

  it("runs the line chat on a pipe, and refuses the terminal UI there with what to use", async () => {
    const env = keelEnv({ script: [{ text: "Piped answer." }] });
    const chat = await runKeel([...SCRIPTED], env, { input: "hi\n" });
    expect(chat.code).toBe(0);
    expect(chat.stdout).toBe("Piped answer.\n");
    const tui = await runKeel(["--mode", "tui"], env);
    expect(tui.code).toBe(2);
    expect(tui.stderr).toMatch(/the tui mode needs a terminal.*--mode interactive/);
  });
});
