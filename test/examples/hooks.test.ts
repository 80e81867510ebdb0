/**
 * The examples built on one common hook (a tool_result redactor, a resolve_model router), loaded from their
 * folders and made to do their job. The stop continuation runs through the binary (binary.test.ts) because
 * it needs its flag.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, defineTool, textOf, z } from "@keel/extensions-api";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { createTestKit, type InlinePlugin, type TestKit } from "@keel/testing";

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe("examples/redact-secrets", () => {
  const leaky = (text: string): InlinePlugin => ({
    name: "leaky",
    plugin: definePlugin({
      activate: (api) =>
        api.registerTool(
          defineTool({
            name: "env",
            description: "print env",
            readOnly: true,
            parameters: z.object({}),
            execute: async () => ({ content: text }),
          }),
        ),
    }),
  });

  it("replaces keys and secret values in tool output before it enters the history", async () => {
    const output = [
      "OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234",
      "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 in a url",
      "AKIAABCDEFGHIJKLMNOP",
      "DB_PASSWORD: hunter2",
      "acme_0123456789abcdef0123456789abcdef",
      "PATH=/usr/bin",
    ].join("\n");
    kit = await createTestKit({
      plugins: [example("redact-secrets")],
      inline: [leaky(output)],
      settings: { redact: { patterns: ["acme_[a-f0-9]{32}"] } },
      script: [{ toolCalls: [{ name: "env" }] }, { text: "ok" }],
    });
    await kit.run("show env");
    expect(textOf(kit.toolResults()[0]!)).toBe(
      [
        "OPENAI_API_KEY=[redacted]",
        "token [redacted] in a url",
        "[redacted]",
        "DB_PASSWORD: [redacted]",
        "[redacted]",
        "PATH=/usr/bin",
      ].join("\n"),
    );
  });
});

describe("examples/model-aliases", () => {
  /** A provider with two models that answers with the model it ran on. */
  const twoModels: InlinePlugin = {
    name: "two",
    plugin: definePlugin({
      activate: (api) =>
        api.registerProvider({
          id: "two",
          models: () =>
            ["small", "big"].map((id) => ({ id, provider: "two", contextWindow: 10_000, maxOutput: 1_000 })),
          async *stream(request) {
            const b = new AssistantMessageBuilder("two", request.model.id);
            yield b.start();
            const open = b.beginText();
            yield open;
            yield b.appendText(open.index, `ran on ${request.model.id}`);
            yield b.endBlock(open.index);
            yield b.finish("stop");
          },
        }),
    }),
  };

  it("runs --model fast on the provider/model the alias names", async () => {
    kit = await createTestKit({
      plugins: [example("model-aliases")],
      inline: [twoModels],
      settings: { aliases: { fast: "two/big" }, model: "fast" },
    });
    expect((await kit.run("hi")).finalText).toBe("ran on big");
    expect(kit.runtime.model).toMatchObject({ provider: "two", id: "big" });
  });

  it("warns when an alias names a model no provider lists, and leaves the choice to the host", async () => {
    kit = await createTestKit({
      plugins: [example("model-aliases")],
      inline: [twoModels],
      settings: { aliases: { fast: "gone/model" }, provider: "two", model: "fast" },
    });
    await kit.run("hi");
    expect(kit.problems()).toContain(
      'keel-example-model-aliases: the alias "fast" names gone/model, which no installed provider ' +
        "lists; keel models shows what is there",
    );
    expect(kit.runtime.model).toMatchObject({ provider: "two", id: "fast" });
  });
});
