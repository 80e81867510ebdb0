/**
 * Compatible provider: a vendor that speaks OpenAI's Chat Completions format with one quirk, in one call to
 * `@keel/provider-kit`. "Acme Cloud" is fictional; its reasoning model writes its thinking inline in the
 * answer as `<think>…</think>` (as DeepSeek-R1 does on many compatible servers), and the `thinkTags` quirk
 * splits it out into a thinking block. The kit brings the wire format, streaming, retries, key lookup and
 * the user's `providers.acme` settings (base URL, key, extra models). No install needed: keel maps
 * `@keel/provider-kit` to its own copy.
 *
 * Use it: `ACME_API_KEY=... keel --plugin ./examples/compatible-provider --provider acme -p "hi"`
 * Test it: `providerConformance({ plugin: <this folder>, provider: "acme", model: "acme-r1", format: "openai",
 * keyEnv: "ACME_API_KEY" })` from `@keel/provider-kit/conformance`.
 */
import { definePlugin } from "@keel/extensions-api";
import { registerCompatibleProvider } from "@keel/provider-kit";

export default definePlugin({
  activate(api) {
    registerCompatibleProvider(api, {
      id: "acme",
      api: "openai",
      name: "Acme Cloud",
      baseUrl: "https://api.acme-cloud.example/v1",
      keyEnv: "ACME_API_KEY",
      quirks: { thinkTags: true },
      models: [
        { id: "acme-r1", contextWindow: 65_536, maxOutput: 8192, reasoning: true, cost: { input: 0.5, output: 2 } },
        { id: "acme-small", contextWindow: 32_768, maxOutput: 4096, cost: { input: 0.1, output: 0.3 } },
      ],
    });
  },
});
