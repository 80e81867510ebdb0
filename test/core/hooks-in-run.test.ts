import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, STAGE_POLICY, textOf, type ProviderRequest } from "@keel/extensions-api";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { createTestKit, type InlinePlugin, type TestKit } from "@keel/testing";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const plugin = (name: string, activate: Parameters<typeof definePlugin>[0]["activate"]): InlinePlugin => ({
  name,
  plugin: definePlugin({ activate }),
});

/** A provider that records each request and answers with the last user text reversed. */
function recordingProvider(requests: ProviderRequest[]): InlinePlugin {
  return plugin("recorder", (api) =>
    api.registerProvider({
      id: "recorder",
      models: () => [{ id: "r1", provider: "recorder", contextWindow: 100_000, maxOutput: 1_000 }],
      async *stream(request) {
        requests.push(structuredClone(request));
        const b = new AssistantMessageBuilder("recorder", request.model.id);
        yield b.start();
        const open = b.beginText();
        yield open;
        yield b.appendText(open.index, `saw: ${textOf(request.messages.at(-1)!)}`);
        yield b.endBlock(open.index);
        yield b.finish("stop");
      },
    }),
  );
}

describe("hooks inside a run, one by one", () => {
  it("input: a guard rewrites the prompt before it enters the history", async () => {
    const requests: ProviderRequest[] = [];
    kit = await createTestKit({
      inline: [
        recordingProvider(requests),
        plugin(
          "redact",
          (api) =>
            void api.hooks.tap("input", (e) => ({
              rewrite: { content: String(e.content).replace(/sk-\w+/g, "[key]") },
            })),
        ),
      ],
      settings: { provider: "recorder" },
    });
    const result = await kit.run("my key is sk-abc123");
    expect(textOf(kit.runtime.messages[0]!)).toBe("my key is [key]");
    expect(result.finalText).toBe("saw: my key is [key]");
  });

  it("input: a blocked prompt never reaches the model and the run says why", async () => {
    const requests: ProviderRequest[] = [];
    kit = await createTestKit({
      inline: [
        recordingProvider(requests),
        plugin(
          "no-rm",
          (api) => void api.hooks.tap("input", { stage: STAGE_POLICY }, () => ({ block: true, reason: "not today" })),
        ),
      ],
      settings: { provider: "recorder" },
    });
    const result = await kit.run("rm -rf everything");
    expect(requests).toHaveLength(0);
    expect(result).toMatchObject({ reason: "error", errorMessage: "Input blocked by no-rm: not today" });
    expect(kit.eventsOf("guard_blocked")[0]).toMatchObject({ hook: "input", by: "no-rm" });
  });

  it("system_prompt: context plugins add to the distribution's prompt, in stage order", async () => {
    const requests: ProviderRequest[] = [];
    kit = await createTestKit({
      inline: [
        recordingProvider(requests),
        plugin("late", (api) => void api.hooks.tap("system_prompt", { stage: 50 }, (p) => `${p}\nLATE`)),
        plugin(
          "early",
          (api) => void api.hooks.tap("system_prompt", (p, info) => `${p}\nEARLY tools=${info.toolNames.length}`),
        ),
      ],
      settings: { provider: "recorder", systemPrompt: "BASE" },
    });
    await kit.run("hi");
    expect(requests[0]!.systemPrompt).toBe("BASE\nEARLY tools=0\nLATE");
  });

  it("message_end: a transform changes the assistant message before it enters the history", async () => {
    kit = await createTestKit({
      inline: [
        plugin(
          "shout",
          (api) =>
            void api.hooks.tap("message_end", (m) => ({
              ...m,
              content: m.content.map((b) => (b.type === "text" ? { ...b, text: b.text.toUpperCase() } : b)),
            })),
        ),
      ],
      script: [{ text: "quiet" }],
    });
    const result = await kit.run("hi");
    expect(result.finalText).toBe("QUIET");
  });

  it("a transform that returns the wrong type is skipped and reported, for each transform hook", async () => {
    const requests: ProviderRequest[] = [];
    const wrong = plugin("wrong-types", (api) => {
      api.hooks.tap("system_prompt", () => 42 as never);
      api.hooks.tap("context", () => ({ not: "a list" }) as never);
    });
    kit = await createTestKit({
      inline: [recordingProvider(requests), wrong],
      settings: { provider: "recorder", systemPrompt: "BASE" },
    });
    const result = await kit.run("hi");
    expect(result.finalText).toBe("saw: hi");
    expect(requests[0]!.systemPrompt).toBe("BASE");
    expect(kit.eventsOf("plugin_error").map((e) => [e.phase, e.message])).toEqual([
      [
        "hook system_prompt",
        "its system_prompt hook failed: returned a value of the wrong type (expected a string, got 42); it was ignored",
      ],
      [
        "hook context",
        "its context hook failed: returned a value of the wrong type (expected a list of messages, " +
          'got {"not":"a list"}); it was ignored',
      ],
    ]);
  });

  it("resolve_model: a handler picks the model when the user named none", async () => {
    const requests: ProviderRequest[] = [];
    kit = await createTestKit({
      inline: [
        recordingProvider(requests),
        plugin(
          "router",
          (api) => void api.hooks.tap("resolve_model", (r) => r.available.find((m) => m.provider === "recorder")),
        ),
      ],
      settings: { provider: undefined },
    });
    await kit.run("route me");
    expect(requests[0]!.model.id).toBe("r1");
  });

  it("compact_before: a guard keeps the full context", async () => {
    let strategyAsked = 0;
    kit = await createTestKit({
      inline: [
        plugin(
          "keep-all",
          (api) => void api.hooks.tap("compact_before", () => ({ block: true, reason: "audit mode keeps everything" })),
        ),
        plugin(
          "strategy",
          (api) => void api.hooks.tap("compact", () => (strategyAsked++, { summary: "s", firstKeptIndex: 1 })),
        ),
      ],
      script: [{ text: "one" }, { text: "two" }],
    });
    await kit.run("first");
    await kit.run("second");
    expect(await kit.runtime.compact()).toBeUndefined();
    expect(strategyAsked).toBe(0);
    expect(kit.runtime.messages).toHaveLength(4);
  });

  it("session_start, session_end, shutdown: lifecycle handlers run once each, in that order", async () => {
    const seen: string[] = [];
    kit = await createTestKit({
      inline: [
        plugin("life", (api) => {
          for (const hook of ["session_start", "session_end", "shutdown"] as const)
            api.hooks.tap(hook, () => void seen.push(hook));
          api.onDispose(() => void seen.push("dispose"));
        }),
      ],
      script: [{ text: "ok" }],
    });
    await kit.run("hi");
    await kit.dispose();
    kit = undefined;
    expect(seen).toEqual(["session_start", "session_end", "shutdown", "dispose"]);
  });

  it(
    "history is read-only: a plugin that changes a message fails loudly and the conversation is " + "untouched",
    async () => {
      kit = await createTestKit({
        inline: [
          plugin(
            "vandal",
            (api) =>
              void api.events.on(
                "message_end",
                ({ message }) => void ((message as { content: unknown }).content = "rewritten"),
              ),
          ),
        ],
        script: [{ text: "original" }],
      });
      const result = await kit.run("hi");
      expect(result.finalText).toBe("original");
      expect(textOf(kit.runtime.messages[0]!)).toBe("hi");
      expect(kit.problems().some((p) => p.startsWith("vandal: ") && /read.only|Cannot assign/i.test(p))).toBe(true);
    },
  );
});
