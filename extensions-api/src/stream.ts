/**
 * Helpers for provider authors: build an assistant message piece by piece and get the matching
 * `StreamEvent`s, so every provider emits the same event shapes and ends with exactly one final event.
 */
import { emptyUsage, type AssistantErrorKind, type AssistantMessage, type StopReason, type Usage } from "./messages.js";
import type { ModelInfo, StreamEvent } from "./provider.js";

/** Fills in `usage.cost` from the model's prices (US dollars per million tokens). */
export function withCost(usage: Usage, model: Pick<ModelInfo, "cost">): Usage {
  const price = model.cost;
  if (!price) return usage;
  const input = (usage.input * price.input) / 1e6;
  const output = (usage.output * price.output) / 1e6;
  const cacheRead = (usage.cacheRead * price.cacheRead) / 1e6;
  const longWrites = usage.cacheWrite1h ?? 0;
  const cacheWrite =
    ((usage.cacheWrite - longWrites) * price.cacheWrite + longWrites * (price.cacheWrite1h ?? price.cacheWrite)) / 1e6;
  return { ...usage, cost: { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite } };
}

/**
 * Builds one assistant message and the events describing it. Every method returns the event to yield;
 * `partial` in each event is the live message (UIs render it; they must not keep it past the event).
 */
export class AssistantMessageBuilder {
  readonly message: AssistantMessage;
  private finished = false;

  constructor(provider: string, model: string) {
    this.message = {
      role: "assistant",
      content: [],
      stopReason: "stop",
      usage: emptyUsage(),
      provider,
      model,
      timestamp: Date.now(),
    };
  }

  get isFinished(): boolean {
    return this.finished;
  }

  start(): StreamEvent {
    return { type: "start", partial: this.message };
  }

  beginText(): StreamEvent & { index: number } {
    const index = this.message.content.push({ type: "text", text: "" }) - 1;
    return { type: "text_start", index, partial: this.message };
  }

  appendText(index: number, delta: string): StreamEvent {
    const block = this.message.content[index];
    if (block?.type !== "text") throw new Error(`block ${index} is not text`);
    block.text += delta;
    return { type: "text_delta", index, delta, partial: this.message };
  }

  beginThinking(): StreamEvent & { index: number } {
    const index = this.message.content.push({ type: "thinking", thinking: "" }) - 1;
    return { type: "thinking_start", index, partial: this.message };
  }

  appendThinking(index: number, delta: string): StreamEvent {
    const block = this.message.content[index];
    if (block?.type !== "thinking") throw new Error(`block ${index} is not thinking`);
    block.thinking += delta;
    return { type: "thinking_delta", index, delta, partial: this.message };
  }

  /** Sets the thinking block's signature (or marks it redacted); emits nothing. */
  setThinkingSignature(index: number, signature: string, redacted = false): void {
    const block = this.message.content[index];
    if (block?.type !== "thinking") throw new Error(`block ${index} is not thinking`);
    block.signature = (block.signature ?? "") + signature;
    if (redacted) block.redacted = true;
  }

  beginToolCall(id: string, name: string): StreamEvent & { index: number } {
    const index = this.message.content.push({ type: "toolCall", id, name, arguments: "" }) - 1;
    return { type: "toolcall_start", index, id, name, partial: this.message };
  }

  appendToolArguments(index: number, delta: string): StreamEvent {
    const block = this.message.content[index];
    if (block?.type !== "toolCall") throw new Error(`block ${index} is not a tool call`);
    block.arguments += delta;
    return { type: "toolcall_delta", index, delta, partial: this.message };
  }

  /** Closes a block; the event type follows the block's type. */
  endBlock(index: number): StreamEvent {
    const block = this.message.content[index];
    const type = block?.type === "text" ? "text_end" : block?.type === "thinking" ? "thinking_end" : "toolcall_end";
    return { type, index, partial: this.message };
  }

  setUsage(usage: Partial<Omit<Usage, "cost">>): void {
    Object.assign(this.message.usage, usage);
  }

  /** The final event of a successful reply. */
  finish(stopReason: Exclude<StopReason, "error" | "aborted">, model?: Pick<ModelInfo, "cost">): StreamEvent {
    this.finished = true;
    this.message.stopReason = stopReason;
    if (model) this.message.usage = withCost(this.message.usage, model);
    return { type: "done", message: this.message };
  }

  /**
   * The final event of a failed or aborted reply; the partial content is kept for the record. `errorKind`
   * marks a failure the host acts on (`context_overflow`: the request did not fit the context window).
   */
  fail(
    stopReason: "error" | "aborted",
    errorMessage: string,
    model?: Pick<ModelInfo, "cost">,
    errorKind?: AssistantErrorKind,
  ): StreamEvent {
    this.finished = true;
    this.message.stopReason = stopReason;
    this.message.errorMessage = errorMessage;
    if (errorKind) this.message.errorKind = errorKind;
    if (model) this.message.usage = withCost(this.message.usage, model);
    return { type: "error", message: this.message };
  }
}
