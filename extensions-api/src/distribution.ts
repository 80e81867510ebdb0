/**
 * Distributions: an agent assembled from plugins, shipped as its own command with its own home folder. Two
 * forms of one format:
 *
 * - the *manifest* a person writes (`DistributionManifestSchema`): which plugins at which exact versions from
 *   where, the default settings, the tools offered, prompt additions, what is locked, the catalogs trusted;
 * - the *built* form `keel dist build` writes into the package.json of the folder it makes
 *   (`DistributionPackageSchema`, its `keelDistribution` field): plugin folders and settings, ready to run.
 *   keel's own root package.json is one, the default coding agent.
 */
import { z } from "zod";
import { lazySchema } from "./lazy-schema.js";
import { THINKING_LEVELS } from "./provider.js";

/** The command users type; also names the home folder `~/.<command>`. */
export const DistributionCommandSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, "a command name is lower-case letters, digits and - (it names ~/.<command> too)");

const packageName = lazySchema(() => z.string().regex(/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/, "an npm package name"));
const exactVersion = lazySchema(() =>
  z
    .string()
    .regex(/^\d+\.\d+\.\d+(-[\w.-]+)?(\+[\w.-]+)?$/, "an exact version such as 1.2.3 (no range: a build must repeat)"),
);

/**
 * Where a plugin comes from: `keel` (shipped with keel, found by package name beside it), `npm` (the
 * registry), `catalog:<name>` (through a trusted catalog of the manifest), or `path:<folder>` (relative to
 * the manifest, for a plugin that lives beside it).
 */
export const DistributionSourceSchema = lazySchema(() =>
  z.string().regex(/^(keel|npm|catalog:.+|path:.+)$/, 'expected "keel", "npm", "catalog:<name>" or "path:<folder>"'),
);

export const DistributionPluginSchema = lazySchema(() =>
  z.object({ name: packageName, version: exactVersion, source: DistributionSourceSchema.default("keel") }).strict(),
);

/** A catalog (marketplace.json) the distribution trusts: by name, with where to read it. */
export const TrustedCatalogSchema = z.object({ name: z.string().min(1), source: z.string().min(1) }).strict();

/** The settings a distribution names directly; each maps to a settings key (see `distributionSettings`). */
export const DistributionDefaultsSchema = lazySchema(() =>
  z
    .object({
      provider: z.string().min(1).optional(),
      model: z.string().min(1).optional(),
      /** `permissions.mode`: `auto`, `ask` or `full`. */
      permissionMode: z.enum(["auto", "ask", "full"]).optional(),
      /** `compaction.strategy`: the compaction plugin that answers (`summary`, `window`, …). */
      compaction: z.string().min(1).optional(),
      thinking: z.enum(THINKING_LEVELS).optional(),
    })
    .strict(),
);

export const DistributionManifestSchema = lazySchema(() =>
  z
    .object({
      name: packageName,
      command: DistributionCommandSchema,
      version: exactVersion,
      description: z.string().optional(),
      /** In load order: on a name clash the earlier plugin keeps the plain name. */
      plugins: z.array(DistributionPluginSchema).min(1),
      defaults: DistributionDefaultsSchema.default({}),
      /** Any other default settings (plugin sections), under the user's and the project's. */
      settings: z.record(z.string(), z.unknown()).default({}),
      /** The tools the model is offered, by name (`tools.enabled`); absent: every tool the plugins register. */
      tools: z.array(z.string().min(1)).optional(),
      /** The base system prompt (`systemPrompt`). */
      systemPrompt: z.string().optional(),
      /** Added after the system prompt, whatever a settings layer set it to. */
      promptAdditions: z.array(z.string().min(1)).default([]),
      /** Settings keys (dotted: `permissions.mode`) no user or project layer may change. */
      locked: z.array(z.string().regex(/^[\w-]+(\.[\w-]+)*$/, "a dotted settings key")).default([]),
      /**
       * The catalogs `catalog:<name>` plugins are resolved through, and the only ones (with `lockCatalogs`) the
       * built agent's marketplace uses: `dist build` fetches each and ships it in the built folder.
       */
      catalogs: z.array(TrustedCatalogSchema).default([]),
      /** The built agent trusts exactly `catalogs`: its `market add` adds no other. */
      lockCatalogs: z.boolean().default(false),
    })
    .strict(),
);

export type DistributionManifest = z.output<typeof DistributionManifestSchema>;
export type DistributionPlugin = z.output<typeof DistributionPluginSchema>;
export type TrustedCatalog = z.output<typeof TrustedCatalogSchema>;

/** The `keelDistribution` field of a built distribution's package.json (whose name and version it shares). */
export const DistributionFieldSchema = z
  .object({
    command: DistributionCommandSchema,
    /** Plugin folders, relative to the package.json. */
    plugins: z.array(z.string()),
    settings: z.record(z.string(), z.unknown()).default({}),
    promptAdditions: z.array(z.string()).default([]),
    locked: z.array(z.string()).default([]),
    /** The catalogs the agent trusts; each is shipped as `catalogs/<name>.json` beside the package.json. */
    catalogs: z.array(TrustedCatalogSchema).default([]),
    /** Whether the agent trusts only those (its users add no other catalog). */
    lockCatalogs: z.boolean().default(false),
  })
  .strict();

export const DistributionPackageSchema = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string().optional(),
  keelDistribution: DistributionFieldSchema,
});

export type DistributionField = z.output<typeof DistributionFieldSchema>;

/** The manifest's settings as keel settings keys: `defaults` and `tools` placed under the keys they name. */
export function distributionSettings(manifest: DistributionManifest): Record<string, unknown> {
  const { provider, model, permissionMode, compaction, thinking } = manifest.defaults;
  const named: Record<string, unknown> = { provider, model, thinking, systemPrompt: manifest.systemPrompt };
  const out: Record<string, unknown> = { ...manifest.settings };
  for (const [key, value] of Object.entries(named)) if (value !== undefined) out[key] = value;
  const section = (key: string, extra: Record<string, unknown>) =>
    (out[key] = { ...(out[key] as Record<string, unknown> | undefined), ...extra });
  if (permissionMode) section("permissions", { mode: permissionMode });
  if (compaction) section("compaction", { strategy: compaction });
  if (manifest.tools) section("tools", { enabled: manifest.tools });
  return out;
}
