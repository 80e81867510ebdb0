import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { ECHO_TOOL_SOURCE, tempDir, writePlugin, type FixturePlugin } from "../support/plugin-fixtures.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** Loads a healthy echo plugin next to the broken ones and checks a run still completes with it. */
async function loadWith(broken: FixturePlugin[], settings?: Record<string, unknown>): Promise<TestKit> {
  const root = tempDir();
  const dirs = broken.map((p) => writePlugin(root, p));
  const healthy = writePlugin(root, {
    name: "healthy-echo",
    keel: { contributes: { tools: ["echo"] } },
    source: ECHO_TOOL_SOURCE,
  });
  kit = await createTestKit({
    plugins: [...dirs, healthy],
    settings,
    script: [{ toolCalls: [{ name: "echo", arguments: { text: "still here" } }] }, { text: "done" }],
  });
  const result = await kit.run("go");
  expect(result.reason).toBe("stop");
  expect(kit.toolResults()[0]!.content).toEqual([{ type: "text", text: "echo: still here" }]);
  return kit;
}

function stateOf(kit: TestKit, name: string) {
  return kit.plugins().find((p) => p.name === name);
}

/** Two plugins that both contribute a tool named "echo": "echo-one", and `secondName`, which answers "two: …". */
function twoEchoPlugins(secondName: string): [string, string] {
  const root = tempDir();
  const tool = { contributes: { tools: ["echo"] } };
  return [
    writePlugin(root, { name: "echo-one", keel: tool, source: ECHO_TOOL_SOURCE }),
    writePlugin(root, { name: secondName, keel: tool, source: ECHO_TOOL_SOURCE.replace('"echo: "', '"two: "') }),
  ];
}

describe("a plugin that fails is skipped with a reason, and the agent still runs", () => {
  it("malformed manifest", async () => {
    const k = await loadWith([{ name: "bad-manifest", keel: { apiVersion: 1, entry: "./index.ts" }, source: "" }]);
    expect(stateOf(k, "bad-manifest")).toMatchObject({ state: "failed" });
    expect(k.problems().join("\n")).toMatch(
      /bad-manifest: skipped: invalid manifest in .*package\.json: "keel\.apiVersion": .*expected string/,
    );
  });

  it("package.json that is not JSON", async () => {
    const k = await loadWith([{ name: "not-json", rawPackageJson: "{ name: oops" }]);
    expect(k.problems().join("\n")).toMatch(/not-json.*unreadable package\.json/);
  });

  it("missing entry", async () => {
    const k = await loadWith([{ name: "no-entry", keel: { entry: "./missing.ts" } }]);
    expect(stateOf(k, "no-entry")).toMatchObject({ state: "failed" });
    expect(stateOf(k, "no-entry")!.reason).toMatch(/entry .*missing\.ts could not be loaded/);
  });

  it("syntax error in the entry", async () => {
    const k = await loadWith([
      { name: "syntax-error", keel: { activation: ["onStartup"] }, source: "export default {{{ nope" },
    ]);
    expect(stateOf(k, "syntax-error")!.reason).toMatch(/entry .*index\.ts failed to load/);
  });

  it("entry that does not export a plugin", async () => {
    const k = await loadWith([
      { name: "no-default", keel: { activation: ["onStartup"] }, source: "export const x = 1;" },
    ]);
    expect(stateOf(k, "no-default")!.reason).toMatch(/must export default definePlugin/);
  });

  it("throws in activate, and what it registered before throwing is removed", async () => {
    const source = `import { definePlugin, defineTool, z } from "@keel/extensions-api";
      export default definePlugin({ activate(api) {
        api.registerTool(defineTool({ name: "half", description: "h", parameters: z.object({}),
          async execute() { return { content: "x" }; } }));
        throw new Error("config missing");
      } });`;
    const k = await loadWith([{ name: "throws", keel: { contributes: { tools: ["half"] } }, source }]);
    expect(stateOf(k, "throws")!.reason).toBe("activate() threw: config missing");
    expect(k.runtime.listTools().map((t) => t.name)).toEqual(["echo"]);
  });

  it("activate that never resolves", async () => {
    const source = `import { definePlugin } from "@keel/extensions-api";
      export default definePlugin({ activate() { return new Promise(() => {}); } });`;
    const k = await loadWith([{ name: "hangs", keel: { activation: ["onStartup"] }, source }], {
      activationTimeoutMs: 200,
    });
    expect(stateOf(k, "hangs")!.reason).toBe("activate() did not finish within 200 ms");
  });

  it("apiVersion the host does not provide", async () => {
    const k = await loadWith([{ name: "future", keel: { apiVersion: "^2.0.0" }, source: ECHO_TOOL_SOURCE }]);
    expect(stateOf(k, "future")!.reason).toBe(
      "it needs @keel/extensions-api ^2.0.0, but this keel provides 1.0.0; update the plugin or keel",
    );
  });

  it("dependency cycle fails the plugins in it and nothing else", async () => {
    const k = await loadWith([
      {
        name: "cycle-a",
        keel: { dependsOn: { "cycle-b": "^1.0.0" }, activation: ["onStartup"] },
        source: ECHO_TOOL_SOURCE,
      },
      {
        name: "cycle-b",
        keel: { dependsOn: { "cycle-a": "^1.0.0" }, activation: ["onStartup"] },
        source: ECHO_TOOL_SOURCE,
      },
    ]);
    expect(stateOf(k, "cycle-a")!.reason).toMatch(/dependency cycle: cycle-a → cycle-b → cycle-a/);
    expect(stateOf(k, "cycle-b")!.state).toBe("failed");
    expect(stateOf(k, "healthy-echo")!.state).toBe("active");
  });

  it("missing dependency", async () => {
    const k = await loadWith([
      { name: "needs-x", keel: { dependsOn: { "x-plugin": "^1.0.0" } }, source: ECHO_TOOL_SOURCE },
    ]);
    expect(stateOf(k, "needs-x")!.reason).toBe("it depends on x-plugin (^1.0.0), which is not installed");
  });

  it("duplicate tool name: the first keeps it, the second gets an alias and a warning", async () => {
    const [first, second] = twoEchoPlugins("@acme/echo-two");
    kit = await createTestKit({
      plugins: [first, second],
      script: [
        {
          toolCalls: [
            { name: "echo", arguments: { text: "a" } },
            { name: "acme_echo_two__echo", arguments: { text: "b" } },
          ],
        },
        { text: "done" },
      ],
    });
    const result = await kit.run("go");
    expect(result.reason).toBe("stop");
    expect(kit.toolResults().map((r) => r.content[0])).toEqual([
      { type: "text", text: "echo: a" },
      { type: "text", text: "two: b" },
    ]);
    expect(kit.problems().join("\n")).toMatch(
      new RegExp(
        String.raw`tool "echo" is contributed by both echo-one and @acme\/echo-two; echo-one keeps the name ` +
          String.raw`\(it was loaded first\), @acme\/echo-two's is available as "acme_echo_two__echo"`,
      ),
    );
  });

  it("duplicate tool name: the user's choice in settings wins", async () => {
    const [first, second] = twoEchoPlugins("echo-two");
    kit = await createTestKit({
      plugins: [first, second],
      settings: { prefer: { tools: { echo: "echo-two" } } },
      script: [{ toolCalls: [{ name: "echo", arguments: { text: "a" } }] }, { text: "done" }],
    });
    await kit.run("go");
    expect(kit.toolResults()[0]!.content[0]).toEqual({ type: "text", text: "two: a" });
    expect(
      kit.runtime
        .listTools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(["echo", "echo_one__echo"]);
  });

  it("invalid settings disable only that plugin, naming the key and what was expected", async () => {
    const source = `import { definePlugin, z } from "@keel/extensions-api";
      export default definePlugin({ settings: z.object({ timeoutMs: z.number() }).default({ timeoutMs: 5 }),
        activate() {} });`;
    const k = await loadWith([{ name: "typed", keel: { activation: ["onStartup"] }, source }], {
      typed: { timeoutMs: "soon" },
    });
    expect(stateOf(k, "typed")!.reason).toMatch(
      /^invalid settings: "typed\.timeoutMs": .*expected number.*Fix that section of settings\.json/i,
    );
  });

  it("a plugin that falls back on invalid settings runs with defaults for the bad keys only, and warns", async () => {
    const source = `import { definePlugin, z } from "@keel/extensions-api";
      const Settings = z.object({ timeoutMs: z.number().default(5), label: z.string().default("x") }).prefault({});
      export default definePlugin({ settings: Settings, onInvalidSettings: "defaults",
        activate(api) { globalThis.fallbackSettings = api.settings; } });`;
    const k = await loadWith([{ name: "lenient", keel: { activation: ["onStartup"] }, source }], {
      lenient: { timeoutMs: "soon", label: "mine" },
    });
    expect(stateOf(k, "lenient")!.state).toBe("active");
    expect((globalThis as { fallbackSettings?: unknown }).fallbackSettings).toEqual({ timeoutMs: 5, label: "mine" });
    expect(k.eventsOf("plugin_warning").map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^invalid settings: "lenient\.timeoutMs": .*Using the defaults for those keys/),
    );
  });

  it("hands a plugin its typed, defaulted settings section", async () => {
    const source = `import { definePlugin, defineTool, z } from "@keel/extensions-api";
      export default definePlugin({
        settings: z.object({ greeting: z.string().default("hi") }).default({ greeting: "hi" }),
        activate(api) {
        api.registerTool(defineTool({ name: "greet", description: "g", parameters: z.object({}),
          async execute() { return { content: api.settings.greeting + "!" }; } }));
      } });`;
    const root = tempDir();
    const dir = writePlugin(root, {
      name: "greeter",
      keel: { contributes: { tools: ["greet"] }, settingsKey: "greeter" },
      source,
    });
    kit = await createTestKit({
      plugins: [dir],
      settings: { greeter: { greeting: "hello" } },
      script: [{ toolCalls: [{ name: "greet" }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(kit.toolResults()[0]!.content[0]).toEqual({ type: "text", text: "hello!" });
  });

  it("finds a plugin's settings under its name without scope and plugin- prefix when it declares no key", async () => {
    const source = `import { definePlugin, defineTool, z } from "@keel/extensions-api";
      export default definePlugin({ settings: z.object({ word: z.string() }), activate(api) {
        api.registerTool(defineTool({ name: "say", description: "s", parameters: z.object({}),
          async execute() { return { content: api.settings.word }; } }));
      } });`;
    const dir = writePlugin(tempDir(), {
      name: "@acme/keel-plugin-sayer",
      keel: { contributes: { tools: ["say"] } },
      source,
    });
    kit = await createTestKit({
      plugins: [dir],
      settings: { sayer: { word: "found" } },
      script: [{ toolCalls: [{ name: "say" }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(kit.toolResults()[0]!.content[0]).toEqual({ type: "text", text: "found" });
  });
});
