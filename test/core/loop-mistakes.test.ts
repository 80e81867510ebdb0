import { afterEach, describe, expect, it } from "vitest";
import {
  definePlugin,
  defineTool,
  emptyUsage,
  jsonNestingDepth,
  MAX_ARGUMENT_DEPTH,
  textOf,
  z,
  type Message,
} from "@keel/extensions-api";
import { toModelContext } from "@keel/kernel";
import { createTestKit, type InlinePlugin, type TestKit } from "@keel/testing";
import { expectValidPairs, filesTool } from "../support/loop-helpers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const resultText = (kit: TestKit, i = 0) => textOf(kit.toolResults()[i] as Message);

describe("model mistakes become tool results", () => {
  it("answers an unknown tool with the list of available tools", async () => {
    kit = await createTestKit({
      inline: [filesTool({})],
      script: [{ toolCalls: [{ name: "raed", arguments: { path: "x" } }] }, { text: "sorry" }],
    });
    const result = await kit.run("go");
    expect(result.reason).toBe("stop");
    expect(resultText(kit)).toBe('Unknown tool "raed". Available tools: read.');
    expect(kit.toolResults()[0]!.isError).toBe(true);
    expectValidPairs(kit.runtime.messages);
  });

  it("answers arguments that are not valid JSON with the parse error", async () => {
    kit = await createTestKit({
      inline: [filesTool({})],
      script: [{ toolCalls: [{ name: "read", arguments: '{"path": "a.txt"' }] }, { text: "retrying" }],
    });
    await kit.run("go");
    expect(resultText(kit)).toMatch(
      new RegExp(
        String.raw`^The arguments of "read" are not valid JSON \(.+\)\. Nothing was run\. ` +
          String.raw`Send the call again with one JSON object matching the tool's parameters\.$`,
      ),
    );
    expectValidPairs(kit.runtime.messages);
  });

  it("answers arguments that do not match the schema with each problem by path", async () => {
    kit = await createTestKit({
      inline: [filesTool({})],
      script: [{ toolCalls: [{ name: "read", arguments: { path: 42 } }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(resultText(kit)).toMatch(
      new RegExp(
        String.raw`^Invalid arguments for "read": path: .*expected string.*\. ` +
          String.raw`Nothing was run\. Fix the arguments and call it again\.$`,
        "i",
      ),
    );
  });

  it("answers a JSON value that is not an object", async () => {
    kit = await createTestKit({
      inline: [filesTool({})],
      script: [{ toolCalls: [{ name: "read", arguments: "[1,2]" }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(resultText(kit)).toBe(
      'Invalid arguments for "read": expected a JSON object, got an array. Nothing was run. Fix the ' +
        "arguments and call it again.",
    );
  });

  it("runs nothing when the reply was cut off at the output limit", async () => {
    let ran = 0;
    kit = await createTestKit({
      inline: [filesTool({ "a.txt": "A" }, () => ran++)],
      script: [{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }], stopReason: "length" }, { text: "ok" }],
    });
    await kit.run("go");
    expect(ran).toBe(0);
    expect(resultText(kit)).toMatch(/stop reason: length.*may be cut off.*Nothing was run/);
  });

  it("turns a tool that throws into an error result and carries on", async () => {
    kit = await createTestKit({
      inline: [filesTool({})],
      script: [{ toolCalls: [{ name: "read", arguments: { path: "missing.txt" } }] }, { text: "not there" }],
    });
    const result = await kit.run("go");
    expect(result.reason).toBe("stop");
    expect(resultText(kit)).toBe("Error: no such file: missing.txt");
  });

  it("ends the run after three replies in a row with only malformed calls", async () => {
    const bad = { toolCalls: [{ name: "nope" }] };
    kit = await createTestKit({ inline: [filesTool({})], script: [bad, bad, bad, { text: "never" }] });
    const result = await kit.run("go");
    expect(result.reason).toBe("malformed_limit");
    expect(result.errorMessage).toMatch(/last 3 replies contained only malformed tool calls/);
    expect(kit.eventsOf("turn_start")).toHaveLength(3);
    expectValidPairs(kit.runtime.messages);
  });

  it("resets the malformed count after a good call", async () => {
    const bad = { toolCalls: [{ name: "nope" }] };
    const good = { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] };
    kit = await createTestKit({
      inline: [filesTool({ "a.txt": "A" })],
      script: [bad, bad, good, bad, bad, { text: "done" }],
    });
    const result = await kit.run("go");
    expect(result.reason).toBe("stop");
  });

  it("ends with the provider's error and sends no errored reply back", async () => {
    kit = await createTestKit({ script: [{ text: "partial", error: "server exploded" }] });
    const result = await kit.run("go");
    expect(result).toMatchObject({ reason: "error", errorMessage: "server exploded" });
  });

  it("stops at maxSteps", async () => {
    const call = { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] };
    kit = await createTestKit({
      inline: [filesTool({ "a.txt": "A" })],
      script: [call, call, call],
      settings: { loop: { maxSteps: 2 } },
    });
    const result = await kit.run("go");
    expect(result.reason).toBe("max_steps");
    expect(kit.eventsOf("turn_start")).toHaveLength(2);
  });
});

describe("parallel read-only calls", () => {
  function slowTool(name: string, readOnly: boolean, log: string[], gates: Map<string, () => void>): InlinePlugin {
    return {
      name: `test-${name}`,
      plugin: definePlugin({
        activate(api) {
          api.registerTool(
            defineTool({
              name,
              description: name,
              readOnly,
              parameters: z.object({ id: z.string() }),
              async execute({ id }) {
                log.push(`start ${id}`);
                await new Promise<void>((resolve) => gates.set(id, resolve));
                log.push(`end ${id}`);
                return { content: id };
              },
            }),
          );
        },
      }),
    };
  }

  it("runs consecutive read-only calls together and returns results in call order", async () => {
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    kit = await createTestKit({
      inline: [slowTool("look", true, log, gates), slowTool("change", false, log, gates)],
      script: [
        {
          toolCalls: [
            { name: "look", arguments: { id: "a" } },
            { name: "look", arguments: { id: "b" } },
            { name: "change", arguments: { id: "c" } },
          ],
        },
        { text: "done" },
      ],
    });
    // Release b before a, once both have started; c must not start before both finished.
    kit.runtime.events.on("tool_execution_start", (e) => {
      if ((e.input as { id: string }).id === "b")
        queueMicrotask(() => setImmediate(() => (gates.get("b")!(), setImmediate(() => gates.get("a")!()))));
      if ((e.input as { id: string }).id === "c") setImmediate(() => gates.get("c")!());
    });
    await kit.run("go");
    expect(log).toEqual(["start a", "start b", "end b", "end a", "start c", "end c"]);
    expect(kit.toolResults().map((r) => textOf(r))).toEqual(["a", "b", "c"]);
  });
});

describe("tools that break their contract", () => {
  it("accepts a bare string result and reports a result without content", async () => {
    const sloppy: InlinePlugin = {
      name: "sloppy",
      plugin: definePlugin({
        activate(api) {
          api.registerTool({
            name: "plain",
            description: "returns a string",
            parameters: z.object({}),
            execute: async () => "just text" as never,
          });
          api.registerTool({
            name: "empty",
            description: "returns nothing",
            parameters: z.object({}),
            execute: async () => undefined as never,
          });
        },
      }),
    };
    kit = await createTestKit({
      inline: [sloppy],
      script: [{ toolCalls: [{ name: "plain" }, { name: "empty" }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(kit.toolResults().map((r) => [textOf(r), r.isError])).toEqual([
      ["just text", false],
      [
        'The tool "empty" returned no content: a bug in the plugin sloppy (execute must resolve { ' +
          "content: text, or a list of text and image blocks }). Nothing it returned was kept.",
        true,
      ],
    ]);
  });
});

describe("tool-call ids and nesting", () => {
  it("gives a repeated or empty call id a unique one, so each call gets its own result", async () => {
    kit = await createTestKit({
      inline: [filesTool({ "a.txt": "A", "b.txt": "B" })],
      script: [
        {
          toolCalls: [
            { id: "dup", name: "read", arguments: { path: "a.txt" } },
            { id: "dup", name: "read", arguments: { path: "b.txt" } },
            { id: "", name: "read", arguments: { path: "a.txt" } },
          ],
        },
        { text: "ok" },
      ],
    });
    await kit.run("go");
    expect(kit.toolResults().map((r) => [r.toolCallId, textOf(r)])).toEqual([
      ["dup", "A"],
      ["dup_2", "B"],
      ["call_1", "A"],
    ]);
    expectValidPairs(kit.runtime.messages);
  });

  it("pairs each occurrence of a repeated id in an old session with one result", () => {
    const call = (path: string) => ({
      type: "toolCall" as const,
      id: "dup",
      name: "read",
      arguments: JSON.stringify({ path }),
    });
    const result = (text: string) => ({
      role: "toolResult" as const,
      toolCallId: "dup",
      toolName: "read",
      content: [{ type: "text" as const, text }],
      isError: false,
      timestamp: 0,
    });
    const reply = {
      role: "assistant" as const,
      content: [call("a"), call("b")],
      stopReason: "tool_use" as const,
      usage: emptyUsage(),
      provider: "p",
      model: "m",
      timestamp: 0,
    };
    const view = toModelContext([{ role: "user", content: "go", timestamp: 0 }, reply, result("A"), result("B")]);
    expect(view.filter((m) => m.role === "toolResult").map((m) => textOf(m))).toEqual(["A", "B"]);
  });

  it("answers arguments nested past the limit without parsing them", async () => {
    const deep = `{"path":${"[".repeat(MAX_ARGUMENT_DEPTH)}"a.txt"${"]".repeat(MAX_ARGUMENT_DEPTH)}}`;
    kit = await createTestKit({
      inline: [filesTool({})],
      script: [{ toolCalls: [{ name: "read", arguments: deep }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(resultText(kit)).toBe(
      `The arguments of "read" nest objects and arrays more than ${MAX_ARGUMENT_DEPTH} levels deep ` +
        `(the limit). Nothing was run. Send the call again with flatter arguments.`,
    );
  });

  it("counts nesting outside strings only", () => {
    expect(jsonNestingDepth('{"a":[{"b":"[[[{{{\\"]]"}]}')).toBe(3);
    expect(jsonNestingDepth("[[[[[[", 3)).toBe(4);
  });
});

describe("progress updates", () => {
  it("drops a progress update keel cannot use, reporting it once, and passes good ones on", async () => {
    const noisy: InlinePlugin = {
      name: "noisy",
      plugin: definePlugin({
        activate(api) {
          api.registerTool({
            name: "noisy",
            description: "sends updates",
            parameters: z.object({}),
            async execute(_input, ctx) {
              ctx.update({ content: [null] } as never);
              ctx.update({ content: [7] } as never);
              ctx.update({ content: "halfway" });
              return { content: "done" };
            },
          });
        },
      }),
    };
    kit = await createTestKit({ inline: [noisy], script: [{ toolCalls: [{ name: "noisy" }] }, { text: "ok" }] });
    await kit.run("go");
    expect(kit.eventsOf("tool_execution_update").map((u) => u.partial.content)).toEqual(["halfway"]);
    expect(kit.eventsOf("plugin_warning").map((w) => w.message)).toEqual([
      'tool "noisy" sent a progress update keel cannot use (it returned content keel cannot use ' +
        "(block 0 is null)); such updates are not shown.",
    ]);
  });
});

describe("tool deadlines", () => {
  const slow: InlinePlugin = {
    name: "slow-tool",
    plugin: definePlugin({
      activate(api) {
        api.registerTool({
          name: "slow",
          description: "returns only when stopped",
          parameters: z.object({}),
          timeoutMs: Infinity,
          execute: (_input, ctx) =>
            new Promise((resolve) =>
              ctx.signal.addEventListener("abort", () =>
                resolve({ content: `stopped: ${(ctx.signal.reason as Error).message}` }),
              ),
            ),
        });
      },
    }),
  };

  it("stops a tool at the deadline loop.toolTimeouts sets for it, over the tool's own", async () => {
    kit = await createTestKit({
      inline: [slow],
      script: [{ toolCalls: [{ name: "slow" }] }, { text: "ok" }],
      settings: { loop: { toolTimeouts: { slow: 30 } } },
    });
    const result = await kit.run("go");
    expect(result.reason).toBe("stop");
    expect(resultText(kit)).toBe('stopped: The tool "slow" ran past its deadline of 30 ms.');
  });
});
