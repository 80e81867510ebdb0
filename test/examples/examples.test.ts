import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  definePlugin,
  defineTool,
  STAGE_OBSERVE,
  textOf,
  z,
  type Message,
  type UiResponse,
} from "@keel/extensions-api";
import { createTestKit, type InlinePlugin, type TestKit } from "@keel/testing";

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** A tool that changes something (not read-only) and counts its runs. */
function touchTool(runs: string[]): InlinePlugin {
  return {
    name: "touch-tool",
    plugin: definePlugin({
      activate: (api) =>
        api.registerTool(
          defineTool({
            name: "touch",
            description: "touch a file",
            parameters: z.object({ path: z.string() }),
            execute: async ({ path }) => (runs.push(path), { content: `touched ${path}` }),
          }),
        ),
    }),
  };
}

function answering(response: UiResponse | undefined): InlinePlugin {
  return {
    name: "fake-user",
    plugin: definePlugin({ activate: (api) => void api.hooks.tap("ui_request", () => response) }),
  };
}

describe("examples/approval-gate", () => {
  const script = [{ toolCalls: [{ name: "touch", arguments: { path: "a.txt" } }] }, { text: "done" }];

  it("runs the call when the user approves", async () => {
    const runs: string[] = [];
    kit = await createTestKit({
      plugins: [example("approval-gate")],
      inline: [touchTool(runs), answering({ kind: "confirm", confirmed: true })],
      script,
    });
    await kit.run("touch a.txt");
    expect(runs).toEqual(["a.txt"]);
  });

  it("blocks the call when the user declines", async () => {
    const runs: string[] = [];
    kit = await createTestKit({
      plugins: [example("approval-gate")],
      inline: [touchTool(runs), answering({ kind: "confirm", confirmed: false })],
      script,
    });
    await kit.run("touch a.txt");
    expect(runs).toEqual([]);
    expect(textOf(kit.toolResults()[0]!)).toBe("Blocked by keel-example-approval-gate: the user declined this call");
  });

  it("blocks when no UI can ask, and lets allowed tools through", async () => {
    const runs: string[] = [];
    kit = await createTestKit({ plugins: [example("approval-gate")], inline: [touchTool(runs)], script });
    await kit.run("touch a.txt");
    expect(textOf(kit.toolResults()[0]!)).toMatch(/no one is there to approve it/);
    await kit.dispose();
    kit = await createTestKit({
      plugins: [example("approval-gate")],
      inline: [touchTool(runs)],
      script,
      settings: { approval: { allow: ["touch"] } },
    });
    await kit.run("touch a.txt");
    expect(runs).toEqual(["a.txt"]);
  });
});

describe("examples/notify-on-finish", () => {
  it("posts the run's outcome to the webhook", async () => {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => (bodies.push(JSON.parse(body)), res.end("ok")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      kit = await createTestKit({
        plugins: [example("notify-on-finish")],
        settings: { notify: { webhook: url } },
        script: [{ text: "All tests pass." }],
      });
      await kit.run("run the tests");
      expect(bodies).toHaveLength(1);
      expect((bodies[0] as { text: string }).text).toMatch(/^keel finished \(stop\) in \d+\.\d s: All tests pass\.$/);
    } finally {
      server.close();
    }
  });
});

describe("examples/trim-old-tool-output", () => {
  it("sends old long tool results as a note and keeps the session whole", async () => {
    const long = "x".repeat(50);
    let seen: Message[] = [];
    const spy: InlinePlugin = {
      name: "spy",
      plugin: definePlugin({
        activate: (api) => void api.hooks.tap("context", { stage: STAGE_OBSERVE }, (m) => ((seen = m), m)),
      }),
    };
    const echo: InlinePlugin = {
      name: "echo",
      plugin: definePlugin({
        activate: (api) =>
          api.registerTool(
            defineTool({
              name: "dump",
              description: "d",
              readOnly: true,
              parameters: z.object({}),
              execute: async () => ({ content: long }),
            }),
          ),
      }),
    };
    const call = { toolCalls: [{ name: "dump" }] };
    kit = await createTestKit({
      plugins: [example("trim-old-tool-output")],
      inline: [echo, spy],
      settings: { trim: { keepRecent: 1, minChars: 10 } },
      script: [call, call, { text: "done" }],
    });
    await kit.run("dump twice");
    const results = seen.filter((m) => m.role === "toolResult").map((m) => textOf(m));
    expect(results).toEqual([
      "[dump output of 50 characters trimmed from this request; run the tool again if you need it]",
      long,
    ]);
    expect(kit.toolResults().map((m) => textOf(m))).toEqual([long, long]);
  });
});
