/**
 * Tool calls a model gets wrong in ways that once lost results or broke a session, through the real binary
 * against the mock LLM server in each wire format: the next request body must still pair every call the
 * model sees with exactly one result.
 */
import { MAX_ARGUMENT_DEPTH } from "@keel/extensions-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { startMockLlm, type MockLlm, type RecordedRequest } from "@keel/provider-kit/mock-llm";

type Format = { provider: string; model: string; env: (url: string) => Record<string, string> };

const FORMATS: Format[] = [
  {
    provider: "openai",
    model: "gpt-4.1-mini",
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-e2e" }),
  },
  {
    provider: "openai-responses",
    model: "gpt-5-mini",
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-e2e" }),
  },
  {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    env: (url) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: "sk-ant-e2e" }),
  },
];

/** The tool calls and tool results a request carries, by id, in any of the three formats. */
function pairsOf(request: RecordedRequest): { calls: string[]; results: { id: string; text: string }[] } {
  const calls: string[] = [];
  const results: { id: string; text: string }[] = [];
  const body = request.body as Record<string, any>;
  if (request.format === "openai-responses") {
    for (const item of body.input) {
      if (item.type === "function_call") calls.push(item.call_id);
      if (item.type === "function_call_output") results.push({ id: item.call_id, text: JSON.stringify(item.output) });
    }
    return { calls, results };
  }
  for (const message of body.messages) {
    for (const call of message.tool_calls ?? []) calls.push(call.id);
    if (message.role === "tool") results.push({ id: message.tool_call_id, text: JSON.stringify(message.content) });
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === "tool_use") calls.push(block.id);
      if (block.type === "tool_result") results.push({ id: block.tool_use_id, text: JSON.stringify(block.content) });
    }
  }
  return { calls, results };
}

function expectOneResultPerCall(request: RecordedRequest): { id: string; text: string }[] {
  const { calls, results } = pairsOf(request);
  expect(new Set(calls).size).toBe(calls.length);
  expect(results.map((r) => r.id).sort()).toEqual([...calls].sort());
  return results;
}

describe("tool calls the model gets wrong, in every wire format", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(() => llm.close());

  const run = (env: KeelEnv, format: Format, prompt: string, extra: string[] = []) =>
    runKeel(["-p", prompt, "--provider", format.provider, "--model", format.model, ...extra], env, {
      extraEnv: format.env(llm.url),
    });

  for (const format of FORMATS) {
    it(`answers two calls that share an id with one result each (${format.provider})`, async () => {
      const env = keelEnv({ files: { "a.txt": "alpha contents\n", "b.txt": "bravo contents\n" } });
      const first = llm.requests.length;
      const twice = [
        { id: "call_same", name: "read", arguments: { path: "a.txt" } },
        { id: "call_same", name: "read", arguments: { path: "b.txt" } },
      ];
      llm.push({ reply: { toolCalls: twice } }, { reply: { text: "Both read." } });
      const result = await run(env, format, "read both");
      expect(result).toMatchObject({ code: 0, stdout: "Both read.\n" });
      const results = expectOneResultPerCall(llm.requests[first + 1]!);
      expect(results).toHaveLength(2);
      expect(results.map((r) => r.text).join()).toMatch(/alpha contents.*bravo contents/);
    });

    it(
      `refuses arguments nested ${MAX_ARGUMENT_DEPTH}+ levels deep and the session still resumes ` +
        `(${format.provider})`,
      async () => {
        const env = keelEnv();
        const depth = 5_000;
        const deep = `{"path":"x","a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
        const first = llm.requests.length;
        llm.push(
          { reply: { toolCalls: [{ id: "call_deep", name: "read", arguments: deep }] } },
          { reply: { text: "I will flatten it." } },
        );
        const result = await run(env, format, "go deep");
        expect(result).toMatchObject({ code: 0, stdout: "I will flatten it.\n" });
        const [answer] = expectOneResultPerCall(llm.requests[first + 1]!);
        expect(answer!.text).toContain(`more than ${MAX_ARGUMENT_DEPTH} levels deep (the limit)`);

        llm.push({ reply: { text: "Resumed fine." } });
        const resumed = await run(env, format, "again", ["-c"]);
        expect(resumed).toMatchObject({ code: 0, stdout: "Resumed fine.\n" });
        expectOneResultPerCall(llm.requests[first + 2]!);
      },
    );
  }
});
