/**
 * Trim old tool output: a `context` transform. Tool results older than the last `keepRecent` ones are sent
 * as a one-line note instead of their full text. Only the request changes: the session keeps everything,
 * and the model can run the tool again if it needs the output back.
 *
 * settings.json: { "trim": { "keepRecent": 6, "minChars": 2000 } }
 */
import { definePlugin, textOf, z, type Message } from "@keel/extensions-api";

export default definePlugin({
  settings: z
    .object({
      keepRecent: z.number().int().nonnegative().default(6),
      minChars: z.number().int().nonnegative().default(2000),
    })
    .default({ keepRecent: 6, minChars: 2000 }),
  activate(api) {
    api.hooks.tap("context", (messages): Message[] => {
      const { keepRecent, minChars } = api.settings;
      const resultIndexes = messages.flatMap((m, i) => (m.role === "toolResult" ? [i] : []));
      const old = new Set(resultIndexes.slice(0, Math.max(0, resultIndexes.length - keepRecent)));
      return messages.map((m, i) => {
        if (!old.has(i) || m.role !== "toolResult") return m;
        const text = textOf(m);
        if (text.length < minChars) return m;
        return {
          ...m,
          content: [
            {
              type: "text",
              text:
                `[${m.toolName} output of ${text.length} characters trimmed from this request; ` +
                `run the tool again if you need it]`,
            },
          ],
        };
      });
    });
  },
});
