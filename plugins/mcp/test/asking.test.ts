/**
 * What a server asks of keel, against a tiny server on the v2 server SDK (fixtures/asking-server.mjs): sampling
 * (the session's model answers, after the user's yes; refused when nobody can be asked unless mcp.sampling is
 * allow), elicitation (a form the user fills through the UI; declined without one), and resource templates
 * (listed and readable through mcp_read_resource).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, type UiRequest, type UiResponse } from "@keel/extensions-api";
import { createTestKit, type TestKit, type TestKitOptions } from "@keel/testing";
import { fixtures, nodeServer, pluginDir } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const server = nodeServer(join(fixtures, "asking-server.mjs"));
const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name: `mcp__asking__${name}`, arguments: args }],
});

/** A UI answering each question with `answer(request)`, and the questions it was asked. */
function ui(answer: (request: UiRequest) => UiResponse | undefined) {
  const asked: UiRequest[] = [];
  return {
    asked,
    plugin: {
      name: "ui",
      manifest: { activation: ["onStartup"] },
      plugin: definePlugin({
        activate(api) {
          api.hooks.tap("ui_request", async (request) => {
            asked.push(request);
            return answer(request);
          });
        },
      }),
    },
  };
}

async function start(options: Partial<TestKitOptions>): Promise<TestKit> {
  kit = await createTestKit({
    plugins: [pluginDir],
    keelHome: mkdtempSync(join(tmpdir(), "keel-mcp-asking-")),
    ...options,
    settings: { mcpServers: { asking: server }, ...options.settings },
  });
  return kit;
}

const resultText = (k: TestKit) => JSON.stringify(k.toolResults()[0]!.content);

describe("sampling", () => {
  it("lets a server use the session's model once the user says yes", async () => {
    const yes = ui(() => ({ kind: "confirm", confirmed: true }));
    const k = await start({
      inline: [yes.plugin],
      script: [call("summarize", { text: "a long story" }), { text: "it was short" }, { text: "done" }],
    });
    await k.run("summarize");
    expect(resultText(k)).toContain("summary: it was short");
    expect(yes.asked[0]).toMatchObject({ kind: "confirm" });
    expect(JSON.stringify(yes.asked[0])).toContain("Summarize: a long story");
  });

  it("is refused when nobody can be asked, and allowed without asking by mcp.sampling allow", async () => {
    let k = await start({ script: [call("summarize", { text: "x" }), { text: "done" }] });
    await k.run("summarize");
    expect(resultText(k)).toContain("nobody could be asked");
    await k.dispose();

    k = await start({
      settings: { mcp: { sampling: "allow" } },
      script: [call("summarize", { text: "x" }), { text: "brief" }, { text: "done" }],
    });
    await k.run("summarize");
    expect(resultText(k)).toContain("summary: brief");
  });

  it("is refused when the user says no", async () => {
    const no = ui(() => ({ kind: "confirm", confirmed: false }));
    const k = await start({ inline: [no.plugin], script: [call("summarize", { text: "x" }), { text: "done" }] });
    await k.run("summarize");
    expect(resultText(k)).toContain("the user said no");
  });
});

describe("elicitation", () => {
  it("asks the user each field, keeping defaults they do not change", async () => {
    const user = ui((request) => {
      if (request.kind === "confirm") return { kind: "confirm", confirmed: true };
      if (request.kind === "select") return { kind: "select", value: request.options[0]! };
      return { kind: "input", value: request.title.startsWith("name") ? "Ada" : "" };
    });
    const k = await start({ inline: [user.plugin], script: [call("sign_up"), { text: "done" }] });
    await k.run("sign up");
    expect(resultText(k)).toContain('accept {\\"name\\":\\"Ada\\",\\"plan\\":\\"pro\\",\\"seats\\":3}');
    expect(user.asked.find((r) => r.kind === "select")).toMatchObject({ options: ["pro", "free"] });
  });

  it("is declined when no UI can ask", async () => {
    const k = await start({ script: [call("sign_up"), { text: "done" }] });
    await k.run("sign up");
    expect(resultText(k)).toContain("decline");
  });
});

describe("resource templates", () => {
  it("are listed and readable through mcp_read_resource", async () => {
    const k = await start({
      script: [
        { toolCalls: [{ name: "mcp_read_resource", arguments: { server: "asking" } }] },
        { toolCalls: [{ name: "mcp_read_resource", arguments: { server: "asking", uri: "note://7" } }] },
        { text: "done" },
      ],
    });
    await k.run("notes");
    const [listed, read] = k.toolResults();
    expect(JSON.stringify(listed!.content)).toContain("note://{id}");
    expect(JSON.stringify(read!.content)).toContain("note 7");
  });
});
