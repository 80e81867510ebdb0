/**
 * Where skills, prompt templates and slash commands are looked for, in precedence order (the first of a name
 * wins): the project's folders, narrowest first, then the user's folder, then plugins that list folders in
 * their manifest (`keel.skills`, `keel.prompts`, `keel.content.commands`). Claude Code's `.claude/commands` run
 * `!` lines and grant their `allowed-tools`, so the project's are read only once the folder is trusted, and only
 * the working folder's: trust is decided for that folder's files alone, never a parent's.
 */
import { join } from "node:path";
import type { PluginInfo } from "@keel/extensions-api";

export type ContentKind = "skills" | "prompts" | "commands";

/** Project subfolders of each kind: keel's own, then the ones other agents' users already have. */
const PROJECT_FOLDERS: Record<ContentKind, string[]> = {
  skills: [".keel/skills", ".agents/skills", ".claude/skills"],
  prompts: [".keel/prompts"],
  commands: [".claude/commands"],
};
/** The kinds whose project folders hold configuration, read only from a trusted folder. */
const TRUSTED_ONLY: ReadonlySet<ContentKind> = new Set(["commands"]);

export interface Source {
  dir: string;
  /** Shown in listings and warnings: `project`, `user`, or the plugin's name. */
  origin: string;
  /** Its files may grant tools: the user's, a plugin's, a trusted project's commands (never a project's skills). */
  trusted: boolean;
  /** A plugin's name, which its commands are namespaced by. */
  prefix?: string;
}

/** The folders each plugin lists (its manifest's `skills`, `prompts`, `content.commands`), from what the host read. */
function pluginFolders(plugins: readonly PluginInfo[]): Record<ContentKind, Source[]> {
  const folders: Record<ContentKind, Source[]> = { skills: [], prompts: [], commands: [] };
  for (const plugin of plugins) {
    if ((plugin.state !== "active" && plugin.state !== "lazy") || !plugin.content) continue;
    const source = (dir: string) => ({ dir, origin: plugin.name, trusted: true });
    folders.skills.push(...plugin.content.skills.map(source));
    folders.prompts.push(...plugin.content.prompts.map(source));
    // A plugin's commands are namespaced by it (`/plugin:command`), as in Claude Code.
    folders.commands.push(...plugin.content.commands.map((dir) => ({ ...source(dir), prefix: plugin.name })));
  }
  return folders;
}

/** The context files plugins add to the system prompt (a Gemini CLI extension's `GEMINI.md`). */
export function pluginInstructions(plugins: readonly PluginInfo[]): string[] {
  return plugins.flatMap((p) => (p.state === "active" || p.state === "lazy" ? (p.content?.instructions ?? []) : []));
}

/**
 * Each kind's sources, in precedence order. `chain` is the project's folders, widest first (see folders.ts);
 * `projectTrusted` whether the project's configuration applies.
 */
export function sourcesOf(
  chain: readonly string[],
  keelHome: string,
  plugins: readonly PluginInfo[],
  projectTrusted: boolean,
): Record<ContentKind, Source[]> {
  const fromPlugins = pluginFolders(plugins);
  const project = (kind: ContentKind) =>
    TRUSTED_ONLY.has(kind) ? (projectTrusted ? chain.slice(-1) : []) : [...chain].reverse();
  const sources = (kind: ContentKind): Source[] => [
    ...project(kind).flatMap((folder) =>
      PROJECT_FOLDERS[kind].map((sub) => ({
        dir: join(folder, sub),
        origin: "project",
        // Skills are read in any folder, so a project's never grant tools; its commands wait for trust.
        trusted: TRUSTED_ONLY.has(kind) && projectTrusted,
      })),
    ),
    { dir: join(keelHome, kind), origin: "user", trusted: true },
    ...fromPlugins[kind],
  ];
  return { skills: sources("skills"), prompts: sources("prompts"), commands: sources("commands") };
}
