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
  /**
   * The last history walked in full without finding reported usage: its first and last message, its length
   * and the sum of its sizes. A history that still holds both where they were only grew after them (a
   * placeholder result, made anew for each view, never matches: that history is walked again).
   */
  private walked: { first: Message; last: Message; count: number; tokens: number } | undefined;

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
    this.walked = undefined;
  }

  estimate(messages: readonly Message[], systemPromptTokens = 0): number {
    // Before each request this walks back to the last reply with usage; a provider that reports none would
    // make it walk the whole history every time, so what was walked last time is not walked again.
    const known = this.walked;
    const stop = known && messages[0] === known.first && messages[known.count - 1] === known.last ? known.count : 0;
    let total = stop > 0 ? known!.tokens : 0;
    for (let i = messages.length - 1; i >= stop; i--) {
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
    for (let i = stop; i < messages.length; i++) total += this.size(messages[i]!);
    const last = messages.at(-1);
    this.walked = last && { first: messages[0]!, last, count: messages.length, tokens: total };
    return Math.ceil((total + systemPromptTokens) * this.ratio);
  }
}
