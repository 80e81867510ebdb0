/** Helpers for driving a Provider directly in tests: collect a stream, a fake clock, a standard request. */
import type {
  AssistantMessage,
  Message,
  ModelInfo,
  Provider,
  ProviderRequest,
  RetryInfo,
  StreamEvent,
  ToolSpec,
} from "@keel/extensions-api";
import type { Clock } from "../retry.ts";

export interface Collected {
  events: StreamEvent[];
  message: AssistantMessage;
  /** Event types in order. */
  types: string[];
  retries: RetryInfo[];
  payloadCalls: number;
}

/** A clock whose sleeps return at once and are recorded; `now` is fixed so HTTP-date waits are exact. */
export function fakeClock(now = Date.parse("2025-01-01T00:00:00Z")): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: () => now, random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
}

export const WEATHER_TOOL: ToolSpec = {
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

export function request(
  model: ModelInfo,
  messages: Message[] = [{ role: "user", content: "Hello", timestamp: 1 }],
  extra: Partial<ProviderRequest> = {},
): ProviderRequest {
  return { model, systemPrompt: "You are a test.", messages, tools: [WEATHER_TOOL], ...extra };
}

/** Runs one stream to its end; fails the test if the provider throws or breaks the event contract. */
export async function collect(
  provider: Provider,
  req: ProviderRequest,
  options: {
    signal?: AbortSignal;
    onEvent?: (e: StreamEvent) => void;
    onPayload?: (
      p: unknown,
      h: Record<string, string>,
    ) => Promise<{ payload: unknown; headers: Record<string, string> }>;
  } = {},
): Promise<Collected> {
  const events: StreamEvent[] = [];
  const retries: RetryInfo[] = [];
  let payloadCalls = 0;
  const onPayload = async (payload: unknown, headers: Record<string, string>) => {
    payloadCalls++;
    return options.onPayload ? options.onPayload(payload, headers) : { payload, headers };
  };
  for await (const event of provider.stream(req, {
    signal: options.signal ?? new AbortController().signal,
    onPayload,
    onRetry: (info) => retries.push(info),
  })) {
    events.push(event);
    options.onEvent?.(event);
  }
  const last = events.at(-1);
  if (!last || (last.type !== "done" && last.type !== "error"))
    throw new Error(`stream ended without done/error: ${events.map((e) => e.type).join(",")}`);
  if (events.filter((e) => e.type === "done" || e.type === "error").length !== 1)
    throw new Error("more than one final event");
  if (events[0]?.type !== "start") throw new Error(`first event was ${events[0]?.type}`);
  return { events, message: last.message, types: events.map((e) => e.type), retries, payloadCalls };
}

/** The events without their live `partial` message, for comparing two runs. */
export function shape(events: StreamEvent[]): unknown[] {
  return events.map((e) => {
    const { partial: _p, message, ...rest } = e as StreamEvent & { partial?: unknown; message?: AssistantMessage };
    return message
      ? {
          ...rest,
          content: message.content,
          stopReason: message.stopReason,
          errorMessage: message.errorMessage,
          usage: message.usage,
        }
      : rest;
  });
}

/**
 * Whether a final message can enter the history: a finished reply has complete tool calls (ids, names,
 * arguments that parse); a failed one says why.
 */
export function historyProblems(message: AssistantMessage): string[] {
  const problems: string[] = [];
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    if (!message.errorMessage) problems.push("a failed message without errorMessage");
    return problems;
  }
  const calls = message.content.filter((b) => b.type === "toolCall");
  if (message.stopReason === "tool_use" && calls.length === 0) problems.push("tool_use without tool calls");
  for (const call of calls) {
    if (!call.id || !call.name) problems.push(`a tool call without id or name: ${JSON.stringify(call)}`);
    try {
      JSON.parse(call.arguments);
    } catch {
      problems.push(`tool call ${call.id} has arguments that do not parse: ${call.arguments}`);
    }
  }
  return problems;
}
