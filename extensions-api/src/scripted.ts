/**
 * A scripted model: plays a list of turns written by hand, streaming each in small deltas. It is how tests,
 * the demo and plugin authors run the real loop without a real model. The `provider-scripted` plugin and the
 * test kit both play scripts through `playTurn`.
 */
import { z } from "zod";
import { lazySchema } from "./lazy-schema.js";
import { ASSISTANT_ERROR_KINDS } from "./messages.js";
import type { StreamEvent } from "./provider.js";
import { sleep } from "./sleep.js";
import { AssistantMessageBuilder } from "./stream.js";

export const ScriptToolCallSchema = lazySchema(() =>
  z.object({
    id: z.string().optional(),
    name: z.string(),
    /** An object is serialised as JSON; a string is sent verbatim (to script malformed JSON). */
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default({}),
  }),
);

export const ScriptTurnSchema = lazySchema(() =>
  z.object({
    thinking: z.string().optional(),
    text: z.string().optional(),
    toolCalls: z.array(ScriptToolCallSchema).default([]),
    /** Overrides the stop reason (`length` to script cut-off arguments). */
    stopReason: z.enum(["stop", "length", "tool_use"]).optional(),
    /** Ends the reply with stop reason `error` and this message, after streaming what comes before. */
    error: z.string().optional(),
    /** Marks the `error` as a failure the host acts on (`context_overflow` to script a request that did not fit). */
    errorKind: z.enum(ASSISTANT_ERROR_KINDS).optional(),
    /** Waits this long before each delta (lets tests steer or abort mid-stream). */
    delayMs: z.number().nonnegative().default(0),
    /** Never finishes: streams what it has, then waits until aborted. */
    hang: z.boolean().default(false),
    /** Characters per delta. */
    chunkSize: z.number().int().positive().default(8),
    usage: z.object({ input: z.number(), output: z.number() }).partial().optional(),
  }),
);

export const ScriptSchema = lazySchema(() => z.array(ScriptTurnSchema));

export type ScriptTurn = z.input<typeof ScriptTurnSchema>;

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Streams one scripted turn as a provider would. `callIndex` numbers the tool calls (ids default to
 * `call_<n>`). Ends with `aborted` when the signal fires.
 */
export async function* playTurn(
  input: ScriptTurn,
  signal: AbortSignal,
  meta: { provider: string; model: string; callIndex?: number },
): AsyncGenerator<StreamEvent> {
  const turn = ScriptTurnSchema.parse(input);
  const b = new AssistantMessageBuilder(meta.provider, meta.model);
  const aborted = () => b.fail("aborted", "Aborted by the user.");
  yield b.start();

  const pieces: Array<
    { kind: "thinking" | "text"; text: string } | { kind: "call"; id: string; name: string; args: string }
  > = [];
  if (turn.thinking) pieces.push({ kind: "thinking", text: turn.thinking });
  if (turn.text) pieces.push({ kind: "text", text: turn.text });
  let n = meta.callIndex ?? 0;
  for (const call of turn.toolCalls) {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    pieces.push({ kind: "call", id: call.id ?? `call_${++n}`, name: call.name, args });
  }

  for (const piece of pieces) {
    if (signal.aborted) return yield aborted();
    const open =
      piece.kind === "call"
        ? b.beginToolCall(piece.id, piece.name)
        : piece.kind === "text"
          ? b.beginText()
          : b.beginThinking();
    yield open;
    const body = piece.kind === "call" ? piece.args : piece.text;
    for (const delta of chunks(body, turn.chunkSize)) {
      await sleep(turn.delayMs, signal);
      if (signal.aborted) return yield aborted();
      yield piece.kind === "call"
        ? b.appendToolArguments(open.index, delta)
        : piece.kind === "text"
          ? b.appendText(open.index, delta)
          : b.appendThinking(open.index, delta);
    }
    yield b.endBlock(open.index);
  }

  if (turn.hang) {
    await new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    return yield aborted();
  }
  if (signal.aborted) return yield aborted();
  b.setUsage({ input: turn.usage?.input ?? 0, output: turn.usage?.output ?? 0 });
  if (turn.error) return yield b.fail("error", turn.error, undefined, turn.errorKind);
  yield b.finish(turn.stopReason ?? (turn.toolCalls.length > 0 ? "tool_use" : "stop"));
}
