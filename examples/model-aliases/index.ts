/**
 * A `resolve_model` router: short names for models. With `"aliases": { "fast": "openai/gpt-4.1-mini" }`,
 * `keel --model fast` (or `"model": "fast"` in settings) runs on that provider and model. A name that is not an
 * alias is left to the host's own rule; an alias whose target is not installed is reported, not guessed.
 *
 * settings.json: { "aliases": { "fast": "openai/gpt-4.1-mini", "smart": "anthropic/claude-sonnet-4-5" } }
 */
import { definePlugin, z } from "@keel/extensions-api";

export default definePlugin({
  settings: z.record(z.string(), z.string().regex(/^[^/]+\/.+$/, 'expected "provider/model"')).default({}),
  activate(api) {
    api.hooks.tap("resolve_model", ({ model, available }) => {
      const target = model ? api.settings[model] : undefined;
      if (!target) return undefined;
      const found = available.find((m) => `${m.provider}/${m.id}` === target);
      if (!found)
        api.log.warn(
          `the alias "${model}" names ${target}, which no installed provider lists; keel models shows what is there`,
        );
      return found;
    });
  },
});
