/**
 * provider-scripted: a model that plays a JSON script of turns (text, thinking, tool calls), streaming each in
 * small deltas. The demo and tests use it; so can anyone who wants a repeatable run without a real model.
 *
 * Settings (`scripted`): `{ "script": "turns.json" }` (a path, relative to the workspace) or
 * `{ "script": [ { "text": "hi" } ] }` (the turns inline). Turn format: `ScriptTurnSchema` in the API.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { definePlugin, toolCallsOf, z, type StreamEvent } from "@keel/extensions-api";
import { playTurn, ScriptSchema, type ScriptTurn } from "@keel/extensions-api/scripted";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";

const Settings = z.object({ script: z.union([z.string(), z.array(z.unknown())]).optional() }).default({});

const MODEL = { id: "script", provider: "scripted", name: "Scripted model", contextWindow: 200_000, maxOutput: 32_000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

export default definePlugin({
  settings: Settings,
  activate(api) {
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
        else loadError = `The script ${typeof source === "string" ? source : "(inline)"} is invalid: ${parsed.error.issues.map((i) => `turn ${i.path.join(".")}: ${i.message}`).join("; ")}`;
      } catch (error) {
        loadError = `The script ${String(source)} could not be read: ${(error as Error).message}`;
      }
    };

    api.registerProvider({
      id: "scripted",
      name: "Scripted model",
      models: () => [MODEL],
      checkReady: () =>
        api.settings.script === undefined ? `The scripted provider needs a script: set "scripted": { "script": "turns.json" } in settings (or pass --settings '{"scripted":{"script":"turns.json"}}').` : undefined,
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
    });
  },
});
