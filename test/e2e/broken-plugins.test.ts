/**
 * Third-party plugins that break the agent in ways a type cannot stop, each written to a temp folder and loaded
 * into the real binary with --plugin: every one is contained (the run still answers) and named on stderr.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";
import { writePlugin } from "../support/plugin-fixtures.ts";

/** A plugin registering one tool whose `execute` body is `body` (it gets `input` and `ctx`). */
function toolPlugin(env: KeelEnv, name: string, tool: string, body: string, extra = ""): string {
  const source = `import { definePlugin, defineTool, z } from "@keel/extensions-api";
    export default definePlugin({ activate(api) {
      ${extra}
      api.registerTool(defineTool({ name: ${JSON.stringify(tool)}, description: "test tool",
        parameters: z.object({}).loose(),
        async execute(input, ctx) { ${body} } }));
    } });`;
  return writePlugin(env.cwd, { name, keel: { contributes: { tools: [tool] } }, source });
}

/** The scripted model, with every tool allowed: these tests are about the tools, not the permission policy. */
const ARGS = [...SCRIPTED, "--permission-mode", "full"];

const callThen = (tool: string, text: string) => [{ toolCalls: [{ name: tool }] }, { text }];

/** The tool results of a `--mode json` run, as text. */
function resultTexts(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; result?: { content: { text?: string }[] } })
    .filter((e) => e.type === "tool_execution_end")
    .map((e) => e.result!.content.map((b) => b.text ?? "").join(""));
}

describe("broken third-party plugins are contained and named", () => {
  it(
    "answers a tool's invalid content blocks with an error naming its plugin; large-results never " + "sees them",
    async () => {
      const env = keelEnv({ script: callThen("weird", "carried on") });
      const plugin = toolPlugin(env, "weird-blocks", "weird", `return { content: [null, 7, { type: "video" }] };`);
      const run = await runKeel(["-p", "go", "--mode", "json", "--plugin", plugin, ...ARGS], env);
      expect(run.code).toBe(0);
      expect(resultTexts(run.stdout)[0]).toBe(
        'The tool "weird" returned content keel cannot use (block 0 is null; block 1 is 7; block 2 ' +
          'has type "video" (allowed: text, image)): ' +
          "a bug in the plugin weird-blocks (execute must resolve { content: text, or a list of text " +
          "and image blocks }). Nothing it returned was kept.",
      );
      expect(run.stdout).toContain("carried on");
      expect(run.stderr).toMatch(
        new RegExp(
          String.raw`^keel: plugin weird-blocks@1\.0\.0: tool "weird" returned content keel cannot use .*; ` +
            String.raw`the model was told the call failed\.$`,
          "m",
        ),
      );
      expect(run.stderr).not.toMatch(/large-results/);
    },
  );

  it("stops waiting for a tool that never settles at its deadline and tells the model which tool it was", async () => {
    const env = keelEnv({ script: callThen("stuck", "moved on") });
    const source = `import { definePlugin, z } from "@keel/extensions-api";
      export default definePlugin({ activate(api) {
        api.registerTool({ name: "stuck", description: "never returns", parameters: z.object({}), timeoutMs: 200,
          execute: () => new Promise(() => {}) });
      } });`;
    const plugin = writePlugin(env.cwd, { name: "stuck-tool", keel: { contributes: { tools: ["stuck"] } }, source });
    const run = await runKeel(["-p", "go", "--mode", "json", "--plugin", plugin, ...ARGS], env);
    expect(run.code).toBe(0);
    expect(resultTexts(run.stdout)[0]).toMatch(
      new RegExp(
        String.raw`^The tool "stuck" did not finish within 200 ms \(its deadline\) and was abandoned; ` +
          String.raw`its output was discarded\. .*"toolTimeouts": \{ "stuck"`,
      ),
    );
    expect(run.stdout).toContain("moved on");
    expect(run.stderr).toMatch(/^keel: plugin stuck-tool: tool "stuck" did not finish within 200 ms \(its deadline\)/m);
  });

  it(
    "reports an error thrown from a timer and an unhandled rejection against the plugin, and keeps " + "running",
    async () => {
      const env = keelEnv({
        script: [{ toolCalls: [{ name: "late" }] }, { toolCalls: [{ name: "wait_late" }] }, { text: "survived" }],
      });
      const body = `
      setTimeout(() => {
        Promise.reject(new Error("late rejection")); globalThis.lateFired = true; throw new Error("late boom");
      }, 1);
      return { content: "returned before the timer" };`;
      const waiter = `api.registerTool(defineTool({ name: "wait_late", description: "waits", parameters: z.object({}),
      execute: () => new Promise((resolve) => {
        const poll = () =>
          globalThis.lateFired ? setImmediate(() => resolve({ content: "fired" })) : setImmediate(poll);
        poll();
      }) }));`;
      const plugin = toolPlugin(env, "late-thrower", "late", body, waiter);
      const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
      expect(run).toMatchObject({ code: 0, stdout: "survived\n" });
      expect(run.stderr).toMatch(
        new RegExp(
          String.raw`^keel: plugin late-thrower@1\.0\.0: an error was thrown outside any call keel made .*: ` +
            String.raw`late boom\. keel carried on`,
          "m",
        ),
      );
      expect(run.stderr).toMatch(
        /^keel: plugin late-thrower@1\.0\.0: a promise was rejected and nobody handled it: late rejection\./m,
      );
    },
  );

  it("still ends with exit 1 on a rejection it cannot place (no stack), saying so", async () => {
    const env = keelEnv({ script: callThen("bare", "never") });
    const plugin = toolPlugin(
      env,
      "bare-rejecter",
      "bare",
      `Promise.reject("just a string"); return new Promise(() => {});`,
    );
    const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "keel: a promise was rejected and nobody handled it: just a string, and no plugin's files are " +
        "on its stack: ending (exit 1).\n",
    );
  });

  it(
    "skips a message_end transform that returns null, names it, and the session store still " + "records the reply",
    async () => {
      const env = keelEnv({ script: [{ text: "kept answer" }] });
      const source = `import { definePlugin } from "@keel/extensions-api";
      export default definePlugin({ activate(api) { api.hooks.tap("message_end", () => null); } });`;
      const plugin = writePlugin(env.cwd, {
        name: "null-transform",
        keel: { contributes: { hooks: ["message_end"] } },
        source,
      });
      const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
      expect(run).toMatchObject({ code: 0, stdout: "kept answer\n" });
      expect(run.stderr).toMatch(
        new RegExp(
          String.raw`^keel: plugin null-transform@1\.0\.0: .*returned a value of the wrong type ` +
            String.raw`\(expected an assistant message, got null\); it was ignored$`,
          "m",
        ),
      );
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(sessionText(env)).toContain("kept answer");
    },
  );

  it("saves circular and BigInt details in a form the session can write, naming the tool", async () => {
    const env = keelEnv({ script: callThen("loopy", "noted") });
    const plugin = toolPlugin(
      env,
      "loopy-details",
      "loopy",
      `const details = { count: 10n }; details.self = details; return { content: "ok", details };`,
    );
    const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
    expect(run).toMatchObject({ code: 0, stdout: "noted\n" });
    expect(run.stderr).toMatch(
      new RegExp(
        String.raw`^keel: plugin loopy-details: tool "loopy" returned details that are not plain JSON data ` +
          String.raw`\(a BigInt, kept as a string, a circular reference, kept as "\[Circular\]"\); ` +
          String.raw`they were kept with those values replaced\.$`,
        "m",
      ),
    );
    expect(sessionText(env)).toContain('"details":{"count":"10","self":"[Circular]"}');
  });

  it("keeps stdout the mode's when a plugin writes to it with console.log in activate", async () => {
    const env = keelEnv({ script: [{ text: "clean" }, { text: "clean" }] });
    const source = `import { definePlugin } from "@keel/extensions-api";
      export default definePlugin({ activate() {
        console.log("hello from a chatty plugin"); console.info("more");
      } });`;
    const plugin = writePlugin(env.cwd, { name: "chatty", keel: { activation: ["onStartup"] }, source });
    const text = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
    expect(text).toMatchObject({ code: 0, stdout: "clean\n" });
    expect(text.stderr).toContain("hello from a chatty plugin\nmore\n");
    const json = await runKeel(["-p", "go", "--mode", "json", "--plugin", plugin, ...ARGS], env);
    expect(json.code).toBe(0);
    for (const line of json.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("names a plugin that ends the process with process.exit", async () => {
    const env = keelEnv({ script: callThen("quit", "never") });
    const plugin = toolPlugin(env, "exiter", "quit", `process.exit(7);`);
    const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
    expect(run.code).toBe(7);
    expect(run.stderr).toBe("keel: plugin exiter@1.0.0 called process.exit(7); keel ends with that code.\n");
  });

  it("runs twelve parallel read-only calls that listen for abort without a MaxListenersExceededWarning", async () => {
    const calls = Array.from({ length: 12 }, () => ({ name: "listen" }));
    const env = keelEnv({ script: [{ toolCalls: calls }, { text: "quiet" }] });
    const source = `import { definePlugin, z } from "@keel/extensions-api";
      let started = 0; const waiting = [];
      export default definePlugin({ activate(api) {
        api.registerTool({ name: "listen", description: "waits for all", readOnly: true, parameters: z.object({}),
          execute: (_input, ctx) => new Promise((resolve) => {
            ctx.signal.addEventListener("abort", () => resolve({ content: "aborted" }));
            waiting.push(() => resolve({ content: "done" }));
            if (++started === 12) for (const go of waiting) go();
          }) });
      } });`;
    const plugin = writePlugin(env.cwd, { name: "listeners", keel: { contributes: { tools: ["listen"] } }, source });
    const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
    expect(run).toMatchObject({ code: 0, stdout: "quiet\n", stderr: "" });
  });
});

/** Every session file of the run's KEEL_HOME, concatenated. */
function sessionText(env: KeelEnv): string {
  const root = join(env.home, "sessions");
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.endsWith(".jsonl"),
  );
  return files.map((f) => readFileSync(join(f.parentPath, f.name), "utf8")).join("");
}
