/** The scripted model as a provider: plays the turns of the settings' script, one per request. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { toolCallsOf, type Provider, type StreamEvent } from "@keel/extensions-api";
import { playTurn, ScriptSchema, type ScriptTurn } from "@keel/extensions-api/scripted";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";

const MODEL = {
  id: "script",
  provider: "scripted",
  name: "Scripted model",
  contextWindow: 200_000,
  maxOutput: 32_000,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

/** A provider playing `script` (a path relative to `cwd`, or the turns inline); read on the first request. */
export function scriptedProvider(api: { cwd: string; settings: { script?: string | unknown[] } }): Provider {
  let turns: ScriptTurn[] | undefined;
  let loadError: string | undefined;
  let callIndex = 0;

  const load = () => {
    if (turns || loadError) return;
    const source = api.settings.script;
    try {
      const raw = typeof source === "string" ? JSON.parse(readFileSync(resolve(api.cwd, source), "utf8")) : source;
      const parsed = ScriptSchema.safeParse(raw);
      if (parsed.success) turns = parsed.data;
      else
        loadError =
          `The script ${typeof source === "string" ? source : "(inline)"} is ` +
          `invalid: ${parsed.error.issues.map((i) => `turn ${i.path.join(".")}: ${i.message}`).join("; ")}`;
    } catch (error) {
      loadError = `The script ${String(source)} could not be read: ${(error as Error).message}`;
    }
  };

  return {
    id: "scripted",
    name: "Scripted model",
    models: () => [MODEL],
    checkReady: () =>
      api.settings.script === undefined
        ? `The scripted provider needs a script: set "provider-scripted": { "script": "turns.json" ` +
          `} in settings (or pass --settings '{"provider-scripted":{"script":"turns.json"}}').`
        : undefined,
    async *stream(_request, options): AsyncGenerator<StreamEvent> {
      load();
      const turn = turns?.shift();
      if (!turn) {
        const b = new AssistantMessageBuilder("scripted", MODEL.id);
        yield b.fail("error", loadError ?? "The script has no more turns: the model has nothing left to say.");
        return;
      }
      for await (const event of playTurn(turn, options.signal, { provider: "scripted", model: MODEL.id, callIndex })) {
        if (event.type === "done") callIndex += toolCallsOf(event.message).length;
        yield event;
      }
    },
  };
}
