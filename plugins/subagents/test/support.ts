/**
 * A model for the subagent tests that answers by who is asking: the parent (the session's system prompt) plays
 * `parent` turn by turn; a subagent plays `child(job, step, request)` for its job (its first user message).
 */
import { definePlugin, textOf, type ProviderRequest } from "@keel/extensions-api";
import { playTurn, type ScriptTurn } from "@keel/extensions-api/scripted";
import type { InlinePlugin } from "@keel/testing";

export interface Routed {
  parent: ScriptTurn[];
  child(job: string, step: number, request: ProviderRequest): ScriptTurn | Promise<ScriptTurn>;
}

/** The parent's requests as the model got them. */
export interface Seen {
  parentRequests: ProviderRequest[];
}

export function routedModel(routes: Routed, seen: Seen = { parentRequests: [] }): InlinePlugin {
  const steps = new Map<string, number>();
  let calls = 0;
  return {
    name: "routed-model",
    plugin: definePlugin({
      activate(api) {
        api.registerProvider({
          id: "routed",
          models: () => [{ id: "m", provider: "routed", contextWindow: 100_000, maxOutput: 4096 }],
          async *stream(request, options) {
            const child = request.systemPrompt.startsWith("You are a subagent");
            let turn: ScriptTurn;
            if (child) {
              const job = textOf(request.messages[0]!);
              const step = steps.get(job) ?? 0;
              steps.set(job, step + 1);
              turn = await routes.child(job, step, request);
            } else {
              seen.parentRequests.push(request);
              turn = routes.parent.shift() ?? { error: "the parent's script is over" };
            }
            for await (const event of playTurn(turn, options.signal, {
              provider: "routed",
              model: "m",
              callIndex: calls++ * 10,
            }))
              yield event;
          },
        });
      },
    }),
  };
}

/** Resolves once `count` callers have arrived; each caller waits for all of them. */
export function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === count) open();
    return opened;
  };
}

export const task = (prompt: string, agent?: string) => ({
  name: "task",
  arguments: { description: prompt, prompt, ...(agent ? { agent } : {}) },
});
