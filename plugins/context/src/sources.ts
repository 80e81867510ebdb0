/**
 * Where skills and prompt templates are looked for, in precedence order (the first of a name wins): the
 * project's folders, narrowest first, then the user's folder, then plugins that list folders in their
 * manifest (`keel.skills`, `keel.prompts`).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z, type PluginInfo } from "@keel/extensions-api";

export type ContentKind = "skills" | "prompts";

/** Project subfolders of each kind: keel's own, then the ones other agents' users already have. */
const PROJECT_FOLDERS: Record<ContentKind, string[]> = {
  skills: [".keel/skills", ".agents/skills", ".claude/skills"],
  prompts: [".keel/prompts"],
};

export interface Source {
  dir: string;
  /** Shown in listings and warnings: `project`, `user`, or the plugin's name. */
  origin: string;
}

const ManifestFolders = z.object({
  keel: z.object({ skills: z.array(z.string()).default([]), prompts: z.array(z.string()).default([]) }),
});

function pluginFolders(plugins: readonly PluginInfo[], kind: ContentKind): Source[] {
  return plugins.flatMap((plugin) => {
    if (plugin.state !== "active" && plugin.state !== "lazy") return [];
    try {
      const manifest = ManifestFolders.parse(JSON.parse(readFileSync(join(plugin.dir, "package.json"), "utf8")));
      return manifest.keel[kind].map((dir) => ({ dir: resolve(plugin.dir, dir), origin: plugin.name }));
    } catch {
      return []; // The host read and checked this manifest already; a plugin that lists nothing is the usual case.
    }
  });
}

/** `chain` is the project's folders, widest first (see folders.ts). */
export function sourcesOf(
  kind: ContentKind,
  chain: readonly string[],
  keelHome: string,
  plugins: readonly PluginInfo[],
): Source[] {
  const project = [...chain]
    .reverse()
    .flatMap((folder) => PROJECT_FOLDERS[kind].map((sub) => ({ dir: join(folder, sub), origin: "project" })));
  return [...project, { dir: join(keelHome, kind), origin: "user" }, ...pluginFolders(plugins, kind)];
}
