/**
 * A `complete` function backed by the scripted model (the same `playTurn` the scripted provider plugin uses):
 * each call plays the next scripted reply and records the request it got.
 */
import { type AssistantMessage, type Message, type ModelInfo } from "@keel/extensions-api";
import { playTurn, type ScriptTurn } from "@keel/extensions-api/scripted";
import type { Complete } from "../src/summarise.ts";

export interface RecordedCompletion {
  systemPrompt: string;
  messages: Message[];
  model?: ModelInfo;
}

export function scriptedComplete(script: ScriptTurn[]): { complete: Complete; calls: RecordedCompletion[] } {
  const calls: RecordedCompletion[] = [];
  const complete: Complete = async (request) => {
    calls.push({ systemPrompt: request.systemPrompt, messages: request.messages, model: request.model });
    const next = script.shift() ?? { error: "the script has no more turns" };
    let final: AssistantMessage | undefined;
    for await (const event of playTurn(next, request.signal ?? new AbortController().signal, {
      provider: "scripted",
      model: request.model?.id ?? "scripted",
    })) {
      if (event.type === "done" || event.type === "error") final = event.message;
    }
    return final!;
  };
  return { complete, calls };
}
