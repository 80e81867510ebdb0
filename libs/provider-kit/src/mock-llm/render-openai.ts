/** Renders a reply as an OpenAI Chat Completions stream (`chat.completion.chunk` objects, then `[DONE]`). */
import { argsText, pieces, sseEvent } from "./sse.ts";
import type { MockReply } from "./types.ts";
import type { Rendered } from "./render.ts";

export function renderOpenAI(reply: MockReply, model: string, n: number): Rendered {
  const id = `chatcmpl-mock${n}`;
  const size = reply.chunk ?? 8;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseEvent({
      id,
      object: "chat.completion.chunk",
      created: 1_700_000_000 + n,
      model,
      system_fingerprint: "fp_mock",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
    });
  const events = [chunk({ role: "assistant", content: "" })];
  for (const p of pieces(reply.thinking ?? "", size)) events.push(chunk({ reasoning_content: p }));
  for (const p of pieces(reply.text ?? "", size)) events.push(chunk({ content: p }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_mock${n}_${index}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const p of pieces(argsText(call.arguments), size))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  const stop = reply.stop ?? ((reply.toolCalls ?? []).length > 0 ? "tool_use" : "stop");
  events.push(chunk({}, stop === "tool_use" ? "tool_calls" : stop));
  const u = reply.usage ?? {};
  const input = (u.input ?? 10) + (u.cacheRead ?? 0);
  const output = u.output ?? 5;
  events.push(
    sseEvent({
      id,
      object: "chat.completion.chunk",
      created: 1_700_000_000 + n,
      model,
      system_fingerprint: "fp_mock",
      choices: [],
      usage: {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
        prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    }),
  );
  events.push(sseEvent("[DONE]"));
  return {
    events,
    // The finish chunk and the usage make a complete reply even without [DONE] (some servers never send it).
    finalCount: 3,
    errorEvent: (message, type) => sseEvent({ error: { message, type: type ?? "server_error", code: null } }),
  };
}
