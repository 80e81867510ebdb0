/**
 * `runtime.complete`: one request outside the conversation (a summary, a title), to the session's model or a
 * named one, with no tools. A model that cannot be used comes back as an assistant message with the error.
 */
import { emptyUsage, type AssistantMessage, type Message, type ModelInfo } from "@keel/extensions-api";
import { type EventBus, type HookBus, toModelContext, requestOptions, streamReply } from "@keel/kernel";
import type { Target } from "./model-resolver.js";

/** What `runtime.complete` is given. */
export interface SideRequest {
  systemPrompt: string;
  messages: Message[];
  model?: ModelInfo;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Sends `request` to the model `target` resolves to; a resolve failure is the returned message's error. */
export async function sideRequest(
  target: Promise<Target>,
  request: SideRequest,
  sessionId: string,
  hooks: HookBus,
  bus: EventBus,
): Promise<AssistantMessage> {
  let resolved: Target;
  try {
    resolved = await target;
  } catch (error) {
    return {
      role: "assistant",
      content: [],
      stopReason: "error",
      errorMessage: (error as Error).message,
      usage: emptyUsage(),
      provider: request.model?.provider ?? "none",
      model: request.model?.id ?? "none",
      timestamp: Date.now(),
    };
  }
  const { provider, model } = resolved;
  const signal = request.signal ?? new AbortController().signal;
  const side = {
    model,
    systemPrompt: request.systemPrompt,
    messages: toModelContext(request.messages),
    tools: [],
    maxTokens: request.maxTokens ?? model.maxOutput,
    sessionId,
  };
  return streamReply(provider, side, requestOptions(provider, model, signal, hooks, bus));
}
