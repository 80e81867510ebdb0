import { CompatibleProviderSchema, ProviderSettingsSchema, compatibleConfig } from "@keel/provider-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { collect, request } from "@keel/provider-kit/conformance";
import { OPENAI } from "../../../plugins/provider-openai/src/vendor.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

/** The providers the openai plugin registers for `providers` settings. */
function configs(providers: unknown, env: NodeJS.ProcessEnv = {}) {
  const warnings: string[] = [];
  const out = kitProviders(OPENAI, { providers }, { env }, warnings).map((p) => ({
    id: p.id,
    name: p.name,
    models: p.models(),
  }));
  return { out, warnings };
}

describe("the providers settings section", () => {
  it("takes the base URL from settings, else the SDK's variable, else the default", () => {
    const spec = CompatibleProviderSchema.parse(OPENAI);
    expect(compatibleConfig(spec, undefined, {}).baseUrl).toBe("https://api.openai.com/v1");
    expect(compatibleConfig(spec, undefined, { OPENAI_BASE_URL: "http://127.0.0.1:9/v1/" }).baseUrl).toBe(
      "http://127.0.0.1:9/v1",
    );
    const own = ProviderSettingsSchema.parse({ baseUrl: "http://127.0.0.1:8/v1" });
    expect(compatibleConfig(spec, own, { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }).baseUrl).toBe(
      "http://127.0.0.1:8/v1",
    );
  });

  it("adds a settings-defined provider for this api with its own models and no key variable", () => {
    const { out } = configs({
      ollama: {
        api: "openai",
        baseUrl: "http://127.0.0.1:11434/v1",
        models: [{ id: "qwen3:8b", contextWindow: 40960, reasoning: true }],
      },
      claude: { api: "anthropic", baseUrl: "http://x" },
    });
    expect(out.map((c) => c.id)).toEqual(["openai", "ollama"]);
    expect(out[1]!.name).toBe("ollama (http://127.0.0.1:11434/v1)");
    expect(out[1]!.models).toEqual([
      { id: "qwen3:8b", provider: "ollama", contextWindow: 40960, maxOutput: 16384, reasoning: true, compat: {} },
    ]);
  });

  it("overrides a built-in model's fields and adds new models to the built-in provider", () => {
    const { out } = configs({
      openai: {
        models: [
          { id: "gpt-4o", contextWindow: 64000 },
          { id: "my-finetune", maxOutput: 4096 },
        ],
      },
    });
    const models = out[0]!.models;
    expect(models.find((m) => m.id === "gpt-4o")).toMatchObject({
      contextWindow: 64000,
      maxOutput: 16384,
      cost: { input: 2.5 },
    });
    expect(models.find((m) => m.id === "my-finetune")).toMatchObject({
      provider: "openai",
      contextWindow: 128000,
      maxOutput: 4096,
    });
  });

  it("skips an invalid entry and says which field is wrong", () => {
    const { out, warnings } = configs({ local: { api: "openai", baseUrl: "not a url" }, nobase: { api: "openai" } });
    expect(out.map((c) => c.id)).toEqual(["openai"]);
    expect(warnings[0]).toMatch(/^settings providers.local is invalid and was ignored: baseUrl: /);
    expect(warnings[1]).toMatch(/providers.nobase has no baseUrl/);
  });
});

describe("a settings-defined provider on the wire", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(async () => {
    await llm.close();
  });

  it("sends no Authorization header when no key is configured", async () => {
    const provider = kitProviders(
      OPENAI,
      {
        providers: {
          local: { api: "openai", baseUrl: `${llm.url}/v1`, headers: { "x-team": "keel" }, models: [{ id: "tiny" }] },
        },
      },
      { env: {} },
    )[1]!;
    expect(provider.id).toBe("local");
    expect(await provider.checkReady?.(provider.models()[0]!)).toBeUndefined();
    llm.push({ reply: { text: "hi" } });
    const run = await collect(provider, request(provider.models()[0]!));
    expect(run.message).toMatchObject({ stopReason: "stop", provider: "local", model: "tiny" });
    const seen = llm.requests.at(-1)!;
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers["x-team"]).toBe("keel");
    expect(seen.body.max_tokens).toBeUndefined();
  });

  it("sends the key a !command printed", async () => {
    const provider = kitProviders(
      OPENAI,
      {
        providers: {
          vault: { api: "openai", baseUrl: `${llm.url}/v1`, apiKey: "!echo sk-from-vault", models: [{ id: "tiny" }] },
        },
      },
      { env: {} },
    )[1]!;
    llm.push({ reply: { text: "hi" } });
    await collect(provider, request(provider.models()[0]!));
    expect(llm.requests.at(-1)!.headers.authorization).toBe("Bearer sk-from-vault");
  });

  it("reports a key variable that is not set before any request", async () => {
    const before = llm.requests.length;
    const provider = kitProviders(
      OPENAI,
      {
        providers: {
          groq: { api: "openai", baseUrl: `${llm.url}/v1`, apiKey: "$GROQ_API_KEY", models: [{ id: "llama" }] },
        },
      },
      { env: {} },
    )[1]!;
    const model = provider.models()[0]!;
    expect(await provider.checkReady?.(model)).toBe(
      "No API key for provider groq (model llama): providers.groq.apiKey names $GROQ_API_KEY, which " +
        "is not set in the environment.",
    );
    const run = await collect(provider, request(model));
    expect(run.message.stopReason).toBe("error");
    expect(llm.requests.length).toBe(before);
  });
});
