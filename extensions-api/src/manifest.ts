/**
 * The plugin manifest: the `keel` field of a plugin's package.json. The host reads it without running any
 * plugin code, so listings, conflicts and lazy activation cost nothing.
 */
import { z } from "zod";
import { CONTRIBUTION_KINDS, CONTRIBUTIONS, contributionName, type ContributionKind } from "./contributions.js";
import { HOOKS, type HookName } from "./hooks.js";
import { CapabilitySchema } from "./capabilities.js";

type KindArrays = { [K in ContributionKind]: z.ZodDefault<z.ZodArray<(typeof CONTRIBUTIONS)[K]["entry"]>> };
const kindArrays = Object.fromEntries(
  CONTRIBUTION_KINDS.map((kind) => [kind, z.array(CONTRIBUTIONS[kind].entry).default([])]),
) as unknown as KindArrays;

/** What a plugin registers, one list per kind of `CONTRIBUTIONS`, plus the hooks it taps. */
export const ContributesSchema = z
  .object({
    ...kindArrays,
    hooks: z.array(z.enum(Object.keys(HOOKS) as [HookName, ...HookName[]])).default([]),
  })
  .strict();

export type ManifestContributes = z.output<typeof ContributesSchema>;

const LAZY_KINDS = CONTRIBUTION_KINDS.filter((kind) => CONTRIBUTIONS[kind].lazy);
const EVENT_FORMS = [
  "onStartup",
  ...LAZY_KINDS.map((kind) => `${CONTRIBUTIONS[kind].event}:${kind === "commands" ? "/x" : "x"}`),
].join(", ");

/**
 * When to activate. `onStartup` activates with the host; `on<Kind>:<name>` waits until that contribution is
 * used (see `CONTRIBUTIONS` for what fires each). Absent: derived from `contributes`.
 */
export const ActivationEventSchema = z.string().regex(/^(onStartup|on[A-Za-z]+:.+)$/, `expected one of ${EVENT_FORMS}`);

/**
 * Why `event` can never fire for a plugin contributing `contributes`, or undefined when it can. An event
 * fires only for a kind that may be lazy and a name the manifest declares (a tool declared in full).
 */
export function activationProblem(event: string, contributes: ManifestContributes): string | undefined {
  if (event === "onStartup") return undefined;
  const [prefix, name] = event.split(/:(.*)/s) as [string, string];
  const kind = CONTRIBUTION_KINDS.find((k) => CONTRIBUTIONS[k].event === prefix);
  if (!kind) return `"${event}" is not an activation event; expected one of ${EVENT_FORMS}`;
  const spec = CONTRIBUTIONS[kind];
  if (!spec.lazy) return `"${event}" cannot fire: ${spec.noun}s are ${spec.when}. Use "onStartup"`;
  const entry = (contributes[kind] as (string | { name: string })[]).find((e) => contributionName(e) === name);
  if (entry === undefined)
    return `"${event}" cannot fire: "${name}" is not listed in keel.contributes.${kind}. Declare it there`;
  if (kind === "tools" && typeof entry === "string") {
    return (
      `"${event}" cannot fire: the model calls only tools it was shown, so declare "${name}" ` +
      `in full in keel.contributes.tools ({ "name", "description", "parameters" })`
    );
  }
  return undefined;
}

/** The package formats other hosts defined, which the host reads into a manifest (`keel.content.format`). */
export const PACKAGE_FORMATS = ["agent-plugins", "claude-code", "codex", "gemini"] as const;
export type PackageFormat = (typeof PACKAGE_FORMATS)[number];

/** A configuration a manifest names: a file relative to the plugin's folder, or the configuration itself. */
const FileOrInline = z.union([z.string().min(1), z.record(z.string(), z.unknown())]);

export const PluginContentSchema = z
  .object({
    /** The format the package was written in; absent for a keel plugin that lists content itself. */
    format: z.enum(PACKAGE_FORMATS).optional(),
    /**
     * Folders of slash commands, relative to the plugin's folder: `<name>.md` (Claude Code's Markdown) or
     * `<name>.toml` (Gemini CLI's), a subfolder namespacing its files; each is `/<plugin>:<name>`.
     */
    commands: z.array(z.string().min(1)).default([]),
    /** Folders of subagent definitions (Claude Code's Markdown), offered by the `task` tool as `<plugin>:<name>`. */
    agents: z.array(z.string().min(1)).default([]),
    /** Command hooks in Claude Code's format: a `hooks.json` file (`{ "hooks": { … } }`) or the `hooks` object. */
    hooks: z.array(FileOrInline).default([]),
    /** MCP servers: a file (`.mcp.json`, wrapped or flat) or the servers object, in Claude Code's entry format. */
    mcpServers: z.array(FileOrInline).default([]),
    /** Instruction files added to the system prompt (a Gemini CLI extension's context file). */
    instructions: z.array(z.string().min(1)).default([]),
    /** Tools the package excludes, in Claude Code's rule syntax (`Bash(rm *)`): deny rules while it is enabled. */
    deny: z.array(z.string().min(1)).default([]),
    /** Parts of the package keel does not run, each with why; shown at install and by `keel info`. */
    unhonoured: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type PluginContent = z.output<typeof PluginContentSchema>;

export const KeelManifestSchema = z
  .object({
    /** Semver range of `@keel/extensions-api` the plugin was written for. */
    apiVersion: z.string().min(1),
    /** Entry module, relative to the package folder; `.ts` is loaded without a build step. */
    entry: z.string().min(1).optional(),
    contributes: ContributesSchema.default(ContributesSchema.parse({})),
    activation: z.array(ActivationEventSchema).optional(),
    /** Other plugins (package names) that must be active first, with semver ranges. */
    dependsOn: z.record(z.string(), z.string()).default({}),
    /**
     * The key of this plugin's section in settings.json; defaults to the package name without scope and
     * `keel-plugin-`/`plugin-` prefix.
     */
    settingsKey: z.string().optional(),
    /**
     * Other settings sections the plugin reads through `api.allSettings` (`["providers"]`); it sees only these
     * and its own, so a plugin cannot read another's secrets unless it says so here.
     */
    reads: z.array(z.string().min(1)).default([]),
    /**
     * Keys of the plugin's own section whose lists every settings layer adds to instead of replacing
     * (`["deny", "ask"]`): a trusted project's or `--settings`' rules join the user's, and no layer can drop
     * one from below. Other lists replace, like every setting. A key that starts with a section the plugin
     * `reads` names that section's (`"hooks.*"`); `*` as the last part stands for every key of the object.
     */
    addingLists: z.array(z.string().min(1)).default([]),
    /**
     * Keys a distribution's lock on another key locks too, because they would widen it: `{ "mode": ["allow"] }`
     * (a locked `ask` mode is not undone by a layer's allow rules). Named as `addingLists` names keys.
     */
    locksWith: z.record(z.string(), z.array(z.string().min(1))).default({}),
    /**
     * What the plugin's own code may do, shown at install and agreed to in keel.lock; a confined plugin gets
     * nothing else. The forms are `CAPABILITY_FORMS` (`fs:read:{workspace}/docs`, `net:api.example.com`,
     * `exec:git`, `env:EXAMPLE_KEY`; `fs:read`, `fs:write`, `exec`, `net:*`, `env:*` are the widest). What it
     * does through `ctx.ops` is the backend's to declare.
     */
    capabilities: z.array(CapabilitySchema).default([]),
    description: z.string().optional(),
    /**
     * Providers declared in data, with no code: each `{ id, api, baseUrl, keyEnv?, models, quirks?, … }` as
     * `registerCompatibleProvider` of `@keel/provider-kit` takes it, registered by the host with that library
     * when the plugin activates (validated then; `--provider <id>` activates it).
     */
    providers: z.array(z.object({ id: z.string().min(1) }).passthrough()).default([]),
    /**
     * The wire formats (`openai`, `anthropic`, …) whose user-defined providers this plugin registers: the
     * ids come from the user's settings, so no manifest can list them. The host activates these plugins for
     * a provider id nothing else declares, and does not warn about the ids they register.
     */
    providerApis: z.array(z.string().min(1)).default([]),
    /**
     * Folders of Agent Skills the plugin ships (each skill a folder with a `SKILL.md`), relative to the
     * plugin's folder. Read by the context plugin when a session starts; the plugin's code is not loaded for it.
     */
    skills: z.array(z.string().min(1)).default([]),
    /** Folders of prompt templates the plugin ships (`<name>.md` becomes `/<name>`), relative to its folder. */
    prompts: z.array(z.string().min(1)).default([]),
    /**
     * Components in the community's formats, read by keel's own plugins when a session starts; the plugin's code
     * is not loaded for them. A package in another format (Agent Plugins, Claude Code, Codex, Gemini CLI) is
     * read into this by the host's format adapters (docs/formats.md), so it needs no `keel` field of its own.
     */
    content: PluginContentSchema.optional(),
  })
  .strict()
  .superRefine((manifest, ctx) => {
    const codeless = manifest.providers.length > 0 || manifest.skills.length > 0 || manifest.content !== undefined;
    if (manifest.entry === undefined && !codeless) {
      ctx.addIssue({
        code: "custom",
        path: ["entry"],
        message: "needs an entry (or, for a plugin without code, providers in keel.providers, skills or keel.content)",
      });
    }
    const activation = manifest.activation ?? [];
    activation.forEach((event, i) => {
      const problem = activationProblem(event, manifest.contributes);
      if (problem) ctx.addIssue({ code: "custom", path: ["activation", i], message: problem });
    });
    const eager = CONTRIBUTION_KINDS.filter(
      (kind) => !CONTRIBUTIONS[kind].lazy && manifest.contributes[kind].length > 0,
    );
    if (activation.length > 0 && !activation.includes("onStartup") && eager.length > 0) {
      const kind = eager[0]!;
      ctx.addIssue({
        code: "custom",
        path: ["activation"],
        message: `it contributes ${kind}, which are ${CONTRIBUTIONS[kind].when}; add "onStartup" to keel.activation`,
      });
    }
  });

export type KeelManifest = z.output<typeof KeelManifestSchema>;

/**
 * The section of settings.json that belongs to a plugin: `keel.settingsKey`, else the package name without
 * its scope and a `keel-plugin-` / `plugin-` prefix (`@acme/keel-plugin-notify` → `notify`). First-party
 * plugins all use the derived key; `settingsKey` is for a package whose name cannot change.
 */
export function settingsKeyOf(pkg: { name: string; keel: { settingsKey?: string } }): string {
  return pkg.keel.settingsKey ?? pkg.name.replace(/^@[^/]+\//, "").replace(/^(keel-)?plugin-/, "");
}

/** The parts of package.json the host reads. */
export const PluginPackageSchema = z.object({
  name: z.string().regex(/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/, "an npm package name"),
  version: z.string().min(1),
  description: z.string().optional(),
  keel: KeelManifestSchema,
});

export type PluginPackage = z.output<typeof PluginPackageSchema>;
