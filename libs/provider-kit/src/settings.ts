/**
 * Providers described in data, and the shared `providers` section of settings.json that adjusts or adds them.
 * The kit owns this convention (the host never reads `providers`): a provider the kit registers takes its
 * `providers.<id>` entry as overrides, and a plugin serving an API adds the entries whose `api` names it.
 *
 * ```json
 * { "providers": {
 *     "openai": { "apiKey": "!pass show openai", "models": [{ "id": "my-finetune", "contextWindow": 128000 }] },
 *     "ollama": { "api": "openai", "baseUrl": "http://127.0.0.1:11434/v1",
 *       "models": [{ "id": "qwen3:8b", "contextWindow": 40960, "compat": { "maxTokensField": "max_tokens" } }] } } }
 * ```
 */
import { z, type ModelInfo } from "@keel/extensions-api";
import { API_NAMES } from "./formats.ts";
import { DEFAULT_RETRY, RetrySettingsSchema, type RetryPolicy } from "./retry.ts";

export const ModelSettingsSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().optional(),
    contextWindow: z.number().int().positive().optional(),
    maxOutput: z.number().int().positive().optional(),
    /** US dollars per million tokens. `cacheWrite1h`: Anthropic's 1-hour cache writes (default 2× input). */
    cost: z
      .object({
        input: z.number().min(0),
        output: z.number().min(0),
        cacheRead: z.number().min(0).default(0),
        cacheWrite: z.number().min(0).default(0),
        cacheWrite1h: z.number().min(0).optional(),
      })
      .optional(),
    reasoning: z.boolean().optional(),
    input: z.array(z.enum(["text", "image"])).optional(),
    /** Wire-format quirks; libs/provider-kit/README.md lists the flags each format reads. */
    compat: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const ProviderSettingsSchema = z
  .object({
    /** The wire format of a provider this entry adds; without it, the entry adjusts the provider of that id. */
    api: z.string().optional(),
    baseUrl: z.string().url().optional(),
    /** The key, `$ENV_NAME`, or `!command`. A settings-defined provider without one sends no key. */
    apiKey: z.string().optional(),
    headers: z.record(z.string(), z.string()).default({}),
    models: z.array(ModelSettingsSchema).default([]),
    retry: RetrySettingsSchema.partial().optional(),
  })
  .strict();

/**
 * A provider that speaks one of the kit's wire formats, described in data: what `registerCompatibleProvider`
 * takes in code and a `keel.providers` manifest entry holds.
 */
export const CompatibleProviderSchema = z
  .object({
    /** The provider id (`--provider acme`). */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "1-64 letters, digits, '.', '_' or '-'"),
    /** Which wire format the server speaks. */
    api: z.enum(API_NAMES),
    /** The vendor's name in messages (`Acme Cloud`); defaults to the id. */
    name: z.string().min(1).optional(),
    /** The URL the format's path is appended to, e.g. `https://api.acme.example/v1`. */
    baseUrl: z.string().url(),
    /** A variable that replaces `baseUrl` when set (settings still win). */
    baseUrlEnv: z.string().min(1).optional(),
    /** The variable holding the API key; without it the provider sends no key unless settings give one. */
    keyEnv: z.string().min(1).optional(),
    /** Fixed request headers. */
    headers: z.record(z.string(), z.string()).default({}),
    /** The models it serves; the first is the default. */
    models: z.array(ModelSettingsSchema).min(1),
    /** Quirk flags for every model (a model's own `compat` wins); the README lists each format's flags. */
    quirks: z.record(z.string(), z.unknown()).default({}),
    retry: RetrySettingsSchema.partial().optional(),
  })
  .strict();

export type ProviderSettings = z.output<typeof ProviderSettingsSchema>;
export type ModelSettings = z.output<typeof ModelSettingsSchema>;
export type CompatibleProviderSpec = z.input<typeof CompatibleProviderSchema>;

/** Everything a provider instance needs, resolved from its description, settings and environment. */
export interface ProviderConfig {
  id: string;
  /** Names the provider in messages. */
  name: string;
  baseUrl: string;
  /** The variable that can set `baseUrl`, if the provider reads one (named when the server cannot be reached). */
  baseUrlEnv?: string;
  /** The settings value of `apiKey`, unresolved. */
  apiKey?: string;
  /** The variable read when settings give no key; undefined when no key is needed. */
  keyEnv?: string;
  headers: Record<string, string>;
  models: ModelInfo[];
  retry: RetryPolicy;
}

/** Defaults for a model a user names without giving every number. */
const MODEL_DEFAULTS = { contextWindow: 128_000, maxOutput: 16_384 };

/** Merges models into a table: same id → fields override; new id → added. */
export function mergeModels(
  provider: string,
  base: ModelSettings[],
  extra: ModelSettings[],
  quirks: Record<string, unknown> = {},
): ModelInfo[] {
  const out = new Map<string, ModelInfo>();
  for (const m of [...base, ...extra]) {
    const known = out.get(m.id);
    const defined = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as Partial<ModelInfo>;
    const compat = { ...quirks, ...known?.compat, ...m.compat };
    out.set(m.id, { ...MODEL_DEFAULTS, ...known, ...defined, compat, provider, id: m.id } as ModelInfo);
  }
  return [...out.values()];
}

/** The `providers` section as entries, warning about a section that is not an object. */
export function providerEntries(
  allSettings: Readonly<Record<string, unknown>>,
  warn: (message: string) => void,
): [string, unknown][] {
  const section = allSettings.providers;
  if (section === undefined) return [];
  if (typeof section !== "object" || section === null || Array.isArray(section)) {
    warn(`settings "providers" must be an object of provider id → settings; ignoring it`);
    return [];
  }
  return Object.entries(section);
}

/** Parses one `providers.<id>` entry; an invalid one is reported through `warn` and ignored. */
export function parseProviderEntry(
  id: string,
  raw: unknown,
  warn: (message: string) => void,
): ProviderSettings | undefined {
  const parsed = ProviderSettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  warn(`settings providers.${id} is invalid and was ignored: ${issues(parsed.error)}`);
  return undefined;
}

/** The config of a described provider, adjusted by its `providers.<id>` settings entry. */
export function compatibleConfig(
  spec: z.output<typeof CompatibleProviderSchema>,
  own: ProviderSettings | undefined,
  env: NodeJS.ProcessEnv,
): ProviderConfig {
  return {
    id: spec.id,
    name: spec.name ?? spec.id,
    baseUrl: trimSlash(own?.baseUrl ?? (spec.baseUrlEnv ? env[spec.baseUrlEnv] : undefined) ?? spec.baseUrl),
    baseUrlEnv: spec.baseUrlEnv,
    apiKey: own?.apiKey,
    keyEnv: spec.keyEnv,
    headers: { ...spec.headers, ...own?.headers },
    models: mergeModels(spec.id, spec.models, own?.models ?? [], spec.quirks),
    retry: { ...DEFAULT_RETRY, ...spec.retry, ...own?.retry },
  };
}

/** The config of a provider a settings entry adds, or why it cannot be used. */
export function settingsConfig(id: string, entry: ProviderSettings): ProviderConfig | string {
  if (!entry.baseUrl)
    return `settings providers.${id} has no baseUrl; add the server's URL (e.g. "http://127.0.0.1:11434/v1")`;
  const baseUrl = trimSlash(entry.baseUrl);
  return {
    id,
    name: `${id} (${baseUrl})`,
    baseUrl,
    apiKey: entry.apiKey,
    headers: entry.headers,
    models: mergeModels(id, [], entry.models),
    retry: { ...DEFAULT_RETRY, ...entry.retry },
  };
}

/** zod issues as one line: `path: message; …`. */
export function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(entry)"}: ${i.message}`).join("; ");
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
