/**
 * A `stop` continuation with a flag: `keel --until DONE -p "..."` keeps the agent working until its final
 * answer contains DONE — each time it would stop without it, the run goes on with a user message saying so,
 * at most `keep-going.max` times (the host adds its own cap). Without the flag, runs end as usual.
 *
 * settings.json: { "keep-going": { "max": 5 } }
 */
import { definePlugin, textOf, z } from "@keel/extensions-api";

export default definePlugin({
  settings: z.object({ max: z.number().int().positive().default(5) }).default({ max: 5 }),
  activate(api) {
    api.registerFlag({
      name: "until",
      description: "keep working until the answer contains this word",
      type: "string",
      valueName: "<word>",
    });
    api.hooks.tap("stop", ({ message, continuations }) => {
      const word = api.runtime.flags.until;
      if (typeof word !== "string" || word === "" || textOf(message).includes(word)) return undefined;
      if (continuations >= api.settings.max) return undefined;
      return { continueWith: `You stopped before the task was finished. Keep going; say ${word} when it is done.` };
    });
  },
});
