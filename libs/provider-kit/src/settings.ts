/**
 * The shared `providers` section of settings.json: providers and models a user defines or adjusts. Each
 * provider plugin serves the entries whose `api` names its wire format (and its own built-in id).
 *
 * ```json
 * { "providers": {
 *     "openai": { "apiKey": "!pass show openai", "models": [{ "id": "my-finetune", "contextWindow": 128000 }] },
 *     "ollama": { "api": "openai", "baseUrl": "http://127.0.0.1:11434/v1",
 *                 "models": [{ "id": "qwen3:8b", "contextWindow": 40960, "compat": { "maxTokensField": "max_tokens" } }] } } }
 * ```
 */
import { z, type ModelInfo } from "@keel/extensions-api";
import { DEFAULT_RETRY, RetrySettingsSchema, type RetryPolicy } from "./retry.ts";

export const ModelSettingsSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().optional(),
    contextWindow: z.number().int().positive().optional(),
    maxOutput: z.number().int().positive().optional(),
    /** US dollars per million tokens. */
    cost: z.object({ input: z.number().min(0), output: z.number().min(0), cacheRead: z.number().min(0).default(0), cacheWrite: z.number().min(0).default(0) }).optional(),
    reasoning: z.boolean().optional(),
    input: z.array(z.enum(["text", "image"])).optional(),
    /** Wire-format quirks; each plugin's README lists the flags it reads. */
    compat: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const ProviderSettingsSchema = z
  .object({
    /** The wire format: `openai`, `openai-responses` or `anthropic`. Defaults to the entry's id. */
    api: z.string().optional(),
    baseUrl: z.string().url().optional(),
    /** The key, `$ENV_NAME`, or `!command`. A settings-defined provider without one sends no key. */
    apiKey: z.string().optional(),
    headers: z.record(z.string(), z.string()).default({}),
    models: z.array(ModelSettingsSchema).default([]),
    retry: RetrySettingsSchema.partial().optional(),
  })
  .strict();

export type ProviderSettings = z.output<typeof ProviderSettingsSchema>;
export type ModelSettings = z.output<typeof ModelSettingsSchema>;

/** Everything a provider instance needs, resolved from the built-in defaults, settings and environment. */
export interface ProviderConfig {
  id: string;
  baseUrl: string;
  /** The settings value of `apiKey`, unresolved. */
  apiKey?: string;
  /** The variable read when settings give no key; undefined when no key is needed. */
  keyEnv?: string;
  headers: Record<string, string>;
  models: ModelInfo[];
  retry: RetryPolicy;
}

/** What a plugin knows about its built-in provider. */
export interface BuiltinProvider {
  id: string;
  defaultBaseUrl: string;
  /** e.g. `OPENAI_BASE_URL`; when set it replaces the default (settings still win). */
  baseUrlEnv: string;
  keyEnv: string;
  models: ModelInfo[];
}

/** Defaults for a model a user names without giving every number. */
const MODEL_DEFAULTS = { contextWindow: 128_000, maxOutput: 16_384 };

/** Merges settings models into a table: same id → fields override; new id → added. */
export function mergeModels(provider: string, builtin: ModelInfo[], extra: ModelSettings[]): ModelInfo[] {
  const out = new Map(builtin.map((m) => [m.id, { ...m, provider }]));
  for (const m of extra) {
    const base = out.get(m.id);
    const defined = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as Partial<ModelInfo>;
    out.set(m.id, { ...MODEL_DEFAULTS, ...base, ...defined, compat: { ...base?.compat, ...m.compat }, provider, id: m.id } as ModelInfo);
  }
  return [...out.values()];
}

/**
 * The provider configs a plugin serves: its built-in provider (adjusted by `providers.<builtin id>`) and
 * every settings entry whose `api` is `api`. Invalid entries are skipped and reported through `warn`.
 */
export function providerConfigs(allSettings: Readonly<Record<string, unknown>>, api: string, builtin: BuiltinProvider, warn: (message: string) => void, env: NodeJS.ProcessEnv = process.env): ProviderConfig[] {
  const section = allSettings.providers;
  const entries: [string, ProviderSettings][] = [];
  if (section !== undefined) {
    if (typeof section !== "object" || section === null || Array.isArray(section)) {
      warn(`settings "providers" must be an object of provider id → settings; ignoring it`);
    } else {
      for (const [id, raw] of Object.entries(section)) {
        const parsed = ProviderSettingsSchema.safeParse(raw);
        const named = (raw as { api?: unknown } | null)?.api ?? id;
        if (named !== api && id !== builtin.id) continue;
        if (!parsed.success) {
          warn(`settings providers.${id} is invalid and was ignored: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(entry)"}: ${i.message}`).join("; ")}`);
          continue;
        }
        entries.push([id, parsed.data]);
      }
    }
  }
  const own = entries.find(([id]) => id === builtin.id)?.[1];
  const configs: ProviderConfig[] = [
    {
      id: builtin.id,
      baseUrl: trimSlash(own?.baseUrl ?? env[builtin.baseUrlEnv] ?? builtin.defaultBaseUrl),
      apiKey: own?.apiKey,
      keyEnv: builtin.keyEnv,
      headers: own?.headers ?? {},
      models: mergeModels(builtin.id, builtin.models, own?.models ?? []),
      retry: { ...DEFAULT_RETRY, ...own?.retry },
    },
  ];
  for (const [id, entry] of entries) {
    if (id === builtin.id) continue;
    if (!entry.baseUrl) {
      warn(`settings providers.${id} has no baseUrl; add the server's URL (e.g. "http://127.0.0.1:11434/v1")`);
      continue;
    }
    configs.push({ id, baseUrl: trimSlash(entry.baseUrl), apiKey: entry.apiKey, headers: entry.headers, models: mergeModels(id, [], entry.models), retry: { ...DEFAULT_RETRY, ...entry.retry } });
  }
  return configs;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
