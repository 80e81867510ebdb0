/**
 * The plugin manifest: the `keel` field of a plugin's package.json. The host reads it without running any
 * plugin code, so listings, conflicts and lazy activation cost nothing.
 */
import { z } from "zod";

const name = z.string().min(1);

export const ContributesSchema = z
  .object({
    tools: z.array(name).default([]),
    /** Slash commands, with their leading `/`. */
    commands: z.array(z.string().regex(/^\/[\w:-]+$/, "a command starts with / followed by letters, digits, _ - :")).default([]),
    providers: z.array(name).default([]),
    modes: z.array(name).default([]),
    hooks: z.array(name).default([]),
    /** Command-line flags for the main command, without dashes. */
    flags: z.array(name).default([]),
    /** Subcommands (`keel <name>`). */
    cliCommands: z.array(name).default([]),
    /** Operations backends. */
    ops: z.array(name).default([]),
  })
  .strict();

/**
 * When to activate. `onStartup` activates with the host; the others wait until the named thing is used.
 * Absent: derived from `contributes` (a plugin contributing only commands, modes, providers, CLI commands or
 * ops is lazy; one with tools, hooks or flags starts with the host).
 */
export const ActivationEventSchema = z.union([
  z.literal("onStartup"),
  z.string().regex(/^on(Command|Provider|Mode|Tool|CliCommand|Ops):.+$/, "expected onStartup or onCommand:/x, onProvider:x, onMode:x, onTool:x, onCliCommand:x, onOps:x"),
]);

export const KeelManifestSchema = z
  .object({
    /** Semver range of `@keel/extensions-api` the plugin was written for. */
    apiVersion: z.string().min(1),
    /** Entry module, relative to the package folder; `.ts` is loaded without a build step. */
    entry: z.string().min(1),
    contributes: ContributesSchema.default(ContributesSchema.parse({})),
    activation: z.array(ActivationEventSchema).optional(),
    /** Other plugins (package names) that must be active first, with semver ranges. */
    dependsOn: z.record(z.string(), z.string()).default({}),
    /** The key of this plugin's section in settings.json; defaults to the package name without scope and `keel-plugin-`/`plugin-` prefix. */
    settingsKey: z.string().optional(),
    /** What the plugin may do, shown at install time: `fs:read`, `fs:write`, `exec`, `net:host`, `env:NAME`. */
    capabilities: z.array(z.string()).default([]),
    description: z.string().optional(),
  })
  .strict();

export type KeelManifest = z.output<typeof KeelManifestSchema>;

/** The parts of package.json the host reads. */
export const PluginPackageSchema = z.object({
  name: z.string().regex(/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/, "an npm package name"),
  version: z.string().min(1),
  description: z.string().optional(),
  keel: KeelManifestSchema,
});

export type PluginPackage = z.output<typeof PluginPackageSchema>;
