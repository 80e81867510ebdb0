/**
 * The contribution catalog through the real host: for every kind of `CONTRIBUTIONS`, a plugin activated only by
 * that kind's event is not imported until the contribution is used, and then is; a kind that cannot be lazy,
 * and every event that could never fire, is refused when the manifest is read.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONTRIBUTIONS, type ContributionKind } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { keelEnv, runKeel } from "../support/keel-cli.ts";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";
import { contributions } from "../../scripts/docs/contributions.js";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** A plugin that writes `marker` when imported and registers what `body` registers. */
function lazyPlugin(
  root: string,
  name: string,
  keel: Record<string, unknown>,
  body: string,
): { dir: string; marker: string } {
  const marker = join(root, `${name}.loaded`);
  const source = `
    import { writeFileSync } from "node:fs";
    import { definePlugin, z } from "@keel/extensions-api";
    writeFileSync(${JSON.stringify(marker)}, "loaded");
    export default definePlugin({ activate(api) { ${body} } });`;
  return { dir: writePlugin(root, { name, keel, source }), marker };
}

const ECHO_DECLARATION = {
  name: "lazy_echo",
  description: "Echo text back, from a plugin loaded on first call.",
  readOnly: true,
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "what to echo" } },
    required: ["text"],
  },
};
const ECHO_TOOL = `api.registerTool({ name: "lazy_echo", description: "Echo text back.", readOnly: true,
  parameters: z.object({ text: z.string() }),
  async execute(input) { return { content: "real echo: " + input.text }; } });`;

/**
 * One case per kind, so a kind added to the catalog must say here how it fires (or that it cannot be lazy).
 * `use` triggers the kind the way keel does in a session; cases without it run through the binary below.
 */
const CASES: {
  [K in ContributionKind]: {
    contributes: unknown[];
    register: string;
    event: string;
    use?: (kit: TestKit) => Promise<void>;
  };
} = {
  tools: {
    contributes: [ECHO_DECLARATION],
    register: ECHO_TOOL,
    event: "onTool:lazy_echo",
    // The kit's script makes the model call it.
    use: async (k) => {
      await k.run("echo it");
      expect(k.toolResults().map((r) => r.content)).toEqual([[{ type: "text", text: "real echo: hi" }]]);
    },
  },
  commands: {
    contributes: ["/lazy-hello"],
    register:
      `api.registerCommand({ name: "/lazy-hello", description: "hi", run: (args, runtime) ` +
      `=> runtime.notify("hello " + args) });`,
    event: "onCommand:/lazy-hello",
    use: async (k) => void expect(await k.runtime.runCommand("/lazy-hello there")).toBe(true),
  },
  providers: {
    contributes: ["lazy-prov"],
    register:
      `api.registerProvider({ id: "lazy-prov", models: () => [{ id: "m1", provider: ` +
      `"lazy-prov", contextWindow: 1000, maxOutput: 100 }], async *stream() {} });`,
    event: "onProvider:lazy-prov",
    use: async (k) => void expect((await k.runtime.setModel("lazy-prov", "m1")).provider).toBe("lazy-prov"),
  },
  modes: {
    contributes: ["lazy-mode"],
    register:
      `api.registerMode({ name: "lazy-mode", description: "a mode", async run(runtime) { ` +
      `console.log("lazy mode ran"); return 0; } });`,
    event: "onMode:lazy-mode",
  },
  flags: {
    contributes: ["lazy-flag"],
    register: `api.registerFlag({ name: "lazy-flag", description: "x", type: "boolean" });`,
    event: "onFlag:lazy-flag",
  },
  cliCommands: {
    contributes: ["lazy-cli"],
    register:
      `api.registerCliCommand({ name: "lazy-cli", description: "a subcommand", run(args, ` +
      `options, ctx) { ctx.stdout("lazy cli ran\\n"); return 0; } });`,
    event: "onCliCommand:lazy-cli",
  },
  ops: {
    contributes: ["lazy-ops"],
    register: `api.registerOps({ name: "lazy-ops", create: () => ({}) });`,
    event: "onOps:lazy-ops",
    // The session prepares its backend once the model begins a tool call (the script below calls one).
    use: async (k) => void (await k.run("hi")),
  },
  sessionStores: {
    contributes: ["lazy-store"],
    register:
      `api.registerSessionStore({ name: "lazy-store", list: () => [], newSession: async () ` +
      `=> {}, switchTo: async () => {}, fork: async () => "", tree: () => ({ sessionId: "", ` +
      `entries: [], leafId: null }), jump: async () => {} });`,
    event: "onSessionStore:lazy-store",
  },
  statusEntries: {
    contributes: ["lazy-status"],
    register: `api.registerStatusEntry({ name: "lazy-status", text: () => "on" });`,
    event: "onStatusEntry:lazy-status",
  },
  widgets: {
    contributes: ["lazy-widget"],
    register: `api.registerWidget({ name: "lazy-widget", render: () => ["a line"] });`,
    event: "onWidget:lazy-widget",
  },
  messageRenderers: {
    contributes: ["lazy-kind"],
    register: `api.registerMessageRenderer({ kind: "lazy-kind", render: () => ["a line"] });`,
    event: "onMessageRenderer:lazy-kind",
  },
  keybindings: {
    contributes: ["ctrl+t"],
    register: `api.registerKeybinding({ key: "ctrl+t", description: "x", command: "/x" });`,
    event: "onKeybinding:ctrl+t",
  },
};

describe("an activation event for each contribution kind", () => {
  for (const kind of Object.keys(CONTRIBUTIONS) as ContributionKind[]) {
    const c = CASES[kind];
    const keel = { contributes: { [kind]: c.contributes }, activation: [c.event] };
    if (!CONTRIBUTIONS[kind].lazy) {
      it(`refuses ${c.event}: ${kind} cannot be lazy`, async () => {
        const { dir, marker } = lazyPlugin(tempDir(), `lazy-${kind}`, keel, c.register);
        kit = await createTestKit({ plugins: [dir] });
        expect(kit.plugins().find((p) => p.name === `lazy-${kind}`)!.state).toBe("failed");
        const problem = kit.problems().find((p) => p.startsWith(`lazy-${kind}:`));
        expect(problem).toContain(`"${c.event}" cannot fire`);
        expect(problem).toContain(`Use "onStartup"`);
        expect(existsSync(marker)).toBe(false);
      });
    } else if (c.use) {
      it(`loads a plugin activated by ${c.event} only when it is used`, async () => {
        const { dir, marker } = lazyPlugin(tempDir(), `lazy-${kind}`, keel, c.register);
        const call = { tools: "lazy_echo", ops: "no_such_tool" }[kind as string];
        const script = call
          ? [{ toolCalls: [{ name: call, arguments: { text: "hi" } }] }, { text: "done" }]
          : [{ text: "done" }];
        kit = await createTestKit({ plugins: [dir], script, settings: kind === "ops" ? { ops: "lazy-ops" } : {} });
        expect(kit.plugins().find((p) => p.name === `lazy-${kind}`)!.state).toBe("lazy");
        expect(existsSync(marker)).toBe(false);
        await c.use!(kit);
        expect(existsSync(marker)).toBe(true);
        expect(kit.plugins().find((p) => p.name === `lazy-${kind}`)!.state).toBe("active");
        expect(kit.problems()).toEqual([]);
      });
    }
  }

  it("prepares the operations backend only once the model begins a tool call, not for an answer of text", async () => {
    const keel = { contributes: { ops: CASES.ops.contributes }, activation: [CASES.ops.event] };
    const { dir, marker } = lazyPlugin(tempDir(), "lazy-ops", keel, CASES.ops.register);
    const script = [{ text: "only words" }, { toolCalls: [{ name: "no_such_tool", arguments: {} }] }, { text: "done" }];
    kit = await createTestKit({ plugins: [dir], script, settings: { ops: "lazy-ops" } });
    await kit.run("hi");
    expect(existsSync(marker)).toBe(false);
    await kit.run("call something");
    expect(existsSync(marker)).toBe(true);
  });

  it("loads a plugin activated by onMode: only when the session runs in that mode (real binary)", async () => {
    const root = tempDir();
    const { dir, marker } = lazyPlugin(
      root,
      "lazy-modes",
      { contributes: { modes: CASES.modes.contributes }, activation: [CASES.modes.event] },
      CASES.modes.register,
    );
    const env = keelEnv();
    const listed = await runKeel(["plugins", "--plugin", dir], env);
    expect(listed.stdout).toMatch(/lazy-modes\s+1\.0\.0\s+cli\s+lazy\s+with your rights\s+mode:lazy-mode/);
    expect(existsSync(marker)).toBe(false);
    const run = await runKeel(["--mode", "lazy-mode", "--plugin", dir], env);
    expect(run.stdout).toBe("lazy mode ran\n");
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it("loads a plugin activated by onCliCommand: only for its subcommand (real binary)", async () => {
    const root = tempDir();
    const c = CASES.cliCommands;
    const { dir, marker } = lazyPlugin(
      root,
      "lazy-cli",
      { contributes: { cliCommands: c.contributes }, activation: [c.event] },
      c.register,
    );
    const env = keelEnv();
    await runKeel(["plugins", "--plugin", dir], env);
    expect(existsSync(marker)).toBe(false);
    const run = await runKeel(["lazy-cli", "--plugin", dir], env);
    expect(run.stdout).toBe("lazy cli ran\n");
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("activation events that can never fire are refused when the manifest is read", () => {
  const refused = async (keel: Record<string, unknown>) => {
    const { dir, marker } = lazyPlugin(tempDir(), "never-fires", keel, "");
    kit = await createTestKit({ plugins: [dir] });
    expect(kit.plugins().find((p) => p.name === "never-fires")!.state).toBe("failed");
    expect(existsSync(marker)).toBe(false);
    return kit.problems().find((p) => p.startsWith("never-fires:"))!;
  };

  it("refuses onTool: for a tool given only by name, which the model could never see", async () => {
    const problem = await refused({ contributes: { tools: ["lazy_echo"] }, activation: ["onTool:lazy_echo"] });
    expect(problem).toContain(`"onTool:lazy_echo" cannot fire`);
    expect(problem).toContain('declare "lazy_echo" in full in keel.contributes.tools');
  });

  it("refuses an event naming something the manifest does not declare", async () => {
    const problem = await refused({ contributes: { commands: ["/a"] }, activation: ["onCommand:/b"] });
    expect(problem).toContain(`"onCommand:/b" cannot fire: "/b" is not listed in keel.contributes.commands`);
  });

  it("refuses an event of no known kind, listing the known ones", async () => {
    const problem = await refused({ activation: ["onThing:x"] });
    expect(problem).toContain(
      `"onThing:x" is not an activation event; expected one of onStartup, onTool:x, onCommand:/x`,
    );
  });

  it("refuses a lazy plugin that contributes flags, which must exist before the command line is parsed", async () => {
    const problem = await refused({ contributes: { flags: ["f"], commands: ["/a"] }, activation: ["onCommand:/a"] });
    expect(problem).toContain(`it contributes flags, which are needed before anything runs`);
    expect(problem).toContain(`add "onStartup" to keel.activation`);
  });

  it("refuses a tool declaration whose parameters are not an object schema", async () => {
    const problem = await refused({
      contributes: { tools: [{ ...ECHO_DECLARATION, parameters: { type: "string" } }] },
    });
    expect(problem).toContain(`parameters must be a JSON Schema with "type": "object"`);
  });
});

describe("declared and registered contributions", () => {
  it(
    "answers a call of a manifest-declared tool its plugin did not register with an error naming " + "the plugin",
    async () => {
      const keel = { contributes: { tools: [ECHO_DECLARATION] }, activation: ["onTool:lazy_echo"] };
      const { dir } = lazyPlugin(tempDir(), "no-echo", keel, "");
      kit = await createTestKit({
        plugins: [dir],
        script: [{ toolCalls: [{ name: "lazy_echo", arguments: { text: "hi" } }] }, { text: "done" }],
      });
      await kit.run("echo it");
      const [result] = kit.toolResults();
      expect(result!.isError).toBe(true);
      expect(result!.content).toEqual([
        {
          type: "text",
          text:
            `Error: Plugin no-echo declares the tool "lazy_echo" in keel.contributes.tools but ` +
            `did not register it when activated, so nothing was run. The plugin's author must ` +
            `register it in activate() or remove it from the manifest.`,
        },
      ]);
    },
  );

  it("checks a manifest-declared tool's input against the schema the plugin registered", async () => {
    const keel = { contributes: { tools: [ECHO_DECLARATION] }, activation: ["onTool:lazy_echo"] };
    const strict = ECHO_TOOL.replace("z.string()", "z.string().min(5)");
    const { dir } = lazyPlugin(tempDir(), "strict-echo", keel, strict);
    kit = await createTestKit({
      plugins: [dir],
      script: [{ toolCalls: [{ name: "lazy_echo", arguments: { text: "hi" } }] }, { text: "done" }],
    });
    await kit.run("echo it");
    const text = (kit.toolResults()[0]!.content[0] as { text: string }).text;
    expect(text).toMatch(/^Error: Invalid arguments for "lazy_echo": text: .*Nothing was run/);
  });

  it("warns about every kind a plugin registers without declaring it", async () => {
    const body = `api.registerFlag({ name: "undeclared-flag", description: "x", type: "boolean" });
      api.registerOps({ name: "undeclared-ops", create: () => ({}) });`;
    const { dir } = lazyPlugin(tempDir(), "sloppy", { activation: ["onStartup"] }, body);
    kit = await createTestKit({ plugins: [dir] });
    expect(kit.problems()).toEqual([
      `sloppy: registered flag "undeclared-flag" that its manifest does not list in ` +
        `keel.contributes.flags; listings and lazy activation will not know about it.`,
      `sloppy: registered operations backend "undeclared-ops" that its manifest does not list in ` +
        `keel.contributes.ops; listings and lazy activation will not know about it.`,
    ]);
  });

  it("lets a prefix* tool entry cover tools named at run time, and a registered tool be removed again", async () => {
    const body = `const remove = api.registerTool({ name: "dyn__one", description: "x", parameters: z.object({}),
        async execute() { return { content: "one" }; } });
      api.registerTool({ name: "dyn__two", description: "x", parameters: z.object({}),
        async execute() { return { content: "two" }; } });
      remove();`;
    const { dir } = lazyPlugin(tempDir(), "dynamic", { contributes: { tools: ["dyn__*"] } }, body);
    kit = await createTestKit({ plugins: [dir] });
    expect(kit.problems()).toEqual([]);
    expect(kit.runtime.listTools().map((t) => t.name)).toEqual(["dyn__two"]);
  });

  it("warns about a hook tapped but not declared, and one declared but not tapped", async () => {
    const body = `api.hooks.tap("tool_result", (m) => m);`;
    const { dir } = lazyPlugin(tempDir(), "hooky", { contributes: { hooks: ["context"] } }, body);
    kit = await createTestKit({ plugins: [dir] });
    expect(kit.problems()).toEqual([
      "hooky: tapped the tool_result hook that its manifest does not list in " +
        "keel.contributes.hooks; listings will not know about it.",
      "hooky: declares the context hook in keel.contributes.hooks but did not tap it when " +
        "activated; remove it from the manifest or tap it in activate().",
    ]);
  });

  it("warns about a declared contribution the plugin did not register", async () => {
    const { dir } = lazyPlugin(
      tempDir(),
      "forgetful",
      { contributes: { commands: ["/gone"] }, activation: ["onStartup"] },
      "",
    );
    kit = await createTestKit({ plugins: [dir] });
    expect(kit.problems()).toEqual([
      `forgetful: declares command "/gone" in keel.contributes.commands but did not register it ` +
        `when activated; remove it from the manifest or register it in activate().`,
    ]);
  });
});

it("generates docs/contributions.md from the catalog: every kind, its register method and its event", () => {
  const text = contributions();
  for (const [kind, c] of Object.entries(CONTRIBUTIONS))
    expect(text).toContain(`| \`${kind}\` | ${c.doc} | \`api.${c.register}\` |`);
  expect(text).toContain("| `api.registerTool` | `onTool:name` |");
  expect(text).toContain("| `api.registerFlag` | — (starts with the host) |");
});
