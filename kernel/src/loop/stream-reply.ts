/**
 * Consumes a provider's stream into one assistant message, publishing message_start / message_update. The
 * loop trusts no provider: one that throws, ends without a final event, or ignores abort still yields exactly
 * one final message, and abort ends the wait at once.
 */
import {
  emptyUsage,
  type AssistantMessage,
  type ModelInfo,
  type Provider,
  type ProviderRequest,
  type StreamEvent,
  type StreamOptions,
} from "@keel/extensions-api";
import type { EventBus } from "../bus/event-bus.js";
import { errorText } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";

/**
 * The options every request gets: the signal, the `provider_request` hook (when tapped) on each attempt,
 * `retry_start`.
 */
export function requestOptions(
  provider: Provider,
  model: ModelInfo,
  signal: AbortSignal,
  hooks: HookBus,
  bus: EventBus,
  reasoning?: ProviderRequest["reasoning"],
): StreamOptions {
  const info = { provider: provider.id, model: model.id, ...(reasoning ? { reasoning } : {}) };
  return {
    signal,
    // Without a handler there is nothing to ask, and the provider need not copy the payload for one.
    ...(hooks.has("provider_request") && {
      onPayload: async (payload, headers) => hooks.transform("provider_request", { payload, headers }, info, signal),
    }),
    onRetry: (info) => bus.emit("retry_start", { ...info, provider: provider.id, model: model.id }),
  };
}

/** Streams one reply; with a bus, publishes message_start and message_update (none for side requests). */
export async function streamReply(
  provider: Provider,
  request: ProviderRequest,
  options: StreamOptions,
  bus?: EventBus,
): Promise<AssistantMessage> {
  const { signal } = options;
  let partial: AssistantMessage | undefined;
  let started = false;
  const announce = (message: AssistantMessage) => {
    if (started) return;
    started = true;
    bus?.emit("message_start", { message });
  };
  const fail = (stopReason: "error" | "aborted", errorMessage: string): AssistantMessage => {
    const base = partial ? structuredClone(partial) : blank(provider.id, request.model);
    return { ...base, stopReason, errorMessage };
  };

  let iterator: AsyncIterator<StreamEvent>;
  try {
    iterator = provider.stream(request, options)[Symbol.asyncIterator]();
  } catch (error) {
    const message = fail("error", `Provider "${provider.id}" failed to start a request: ${errorText(error)}`);
    announce(message);
    return message;
  }

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });

  let final: AssistantMessage | undefined;
  for (;;) {
    let next: IteratorResult<StreamEvent> | "aborted";
    try {
      next = await Promise.race([iterator.next(), aborted]);
    } catch (error) {
      final = signal.aborted
        ? fail("aborted", "Aborted by the user.")
        : fail("error", `Provider "${provider.id}" failed: ${errorText(error)}`);
      break;
    }
    if (next === "aborted") {
      // The provider may not honour the signal promptly; stop listening without waiting for it.
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
      final = fail("aborted", "Aborted by the user.");
      break;
    }
    if (next.done) {
      final = fail("error", `Provider "${provider.id}" ended the stream without a final message.`);
      break;
    }
    const event = next.value;
    if (event.type === "done" || event.type === "error") {
      // Release the provider's resources (body, timers) even if its generator has more to say.
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
      final = event.message;
      if (final.stopReason === "error" && !final.errorMessage)
        final.errorMessage = `Provider "${provider.id}" reported an error without a message.`;
      break;
    }
    partial = event.partial;
    if (event.type === "start") {
      announce(event.partial);
      continue;
    }
    announce(event.partial);
    bus?.emit("message_update", { message: event.partial, delta: event });
  }
  // The run's signal outlives this request: leave no listener behind on it.
  signal.removeEventListener("abort", onAbort!);
  announce(final);
  return final;
}

function blank(provider: string, model: ModelInfo): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason: "stop",
    usage: emptyUsage(),
    provider,
    model: model.id,
    timestamp: Date.now(),
  };
}
