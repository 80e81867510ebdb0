/**
 * Estimating how full the context is, without a tokenizer: the provider's last reported usage, plus bytes/4
 * for what came after it, scaled by the ratio between reported and estimated tokens seen so far.
 */
import { type AssistantMessage, type Message } from "@keel/extensions-api";
import { estimateTokens } from "@keel/extensions-api/compaction";

function reported(message: AssistantMessage): number {
  const u = message.usage;
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

export class TokenEstimator {
  private ratio = 1;
  /** Messages never change once in the history, so each is measured once (estimates run every turn). */
  private readonly sizes = new WeakMap<Message, number>();

  private size(message: Message): number {
    let tokens = this.sizes.get(message);
    if (tokens === undefined) {
      tokens = estimateTokens(message);
      this.sizes.set(message, tokens);
    }
    return tokens;
  }
  /** Usage reported before this time counts no more (it measured a context that compaction replaced). */
  private trustedSince = 0;

  /** Learns from a reply: how the provider's count compares to bytes/4 of the context that produced it. */
  observe(context: readonly Message[], reply: AssistantMessage, systemPromptTokens: number): void {
    const actual = reply.usage.input + reply.usage.cacheRead + reply.usage.cacheWrite;
    if (actual <= 0) return;
    const estimated = context.reduce((sum, m) => sum + this.size(m), systemPromptTokens);
    if (estimated <= 0) return;
    this.ratio = Math.min(3, Math.max(0.5, actual / estimated));
  }

  forget(): void {
    this.trustedSince = Date.now();
  }

  estimate(messages: readonly Message[], systemPromptTokens = 0): number {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (
        m.role === "assistant" &&
        m.timestamp >= this.trustedSince &&
        reported(m) > 0 &&
        m.stopReason !== "error" &&
        m.stopReason !== "aborted"
      ) {
        let after = 0;
        for (let j = i + 1; j < messages.length; j++) after += this.size(messages[j]!);
        return reported(m) + Math.ceil(after * this.ratio);
      }
    }
    const total = messages.reduce((sum, m) => sum + this.size(m), systemPromptTokens);
    return Math.ceil(total * this.ratio);
  }
}
