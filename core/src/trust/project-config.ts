/**
 * A project folder's own configuration: the files in it that can run code or redirect credentials, which
 * therefore apply only once the user trusts the folder, and a hash of their content so a change asks again.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { projectHooks } from "./hook-scripts.js";
import { hashPluginFolders, projectPluginFolders } from "./project-plugins.js";

/** Every project-scoped configuration file, relative to the project folder. A new one is added here only. */
/** SHA-256 of no input: the digest of a folder with nothing to hash. */
const NOTHING_HASHED = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export const PROJECT_CONFIG_FILES = [
  ".keel/settings.json",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
] as const;

/**
 * Project files that plugins read themselves once the folder is trusted (`PluginAPI.projectTrusted`), which are
 * no settings layer: the container backend's devcontainer.json picks the image commands run in. Present, each
 * waits for trust like a settings key and is part of the hash.
 */
export const PROJECT_PLUGIN_FILES = [".devcontainer/devcontainer.json", ".devcontainer.json"] as const;

/**
 * Project folders whose every file is configuration that plugins read from the folder themselves once it is
 * trusted (`PluginAPI.projectTrusted`): agent definitions pick tools and models; Claude Code's slash commands
 * run `!` lines and grant their `allowed-tools`. Each file (subfolders too) counts as a configuration file, so a
 * new or changed one asks again.
 */
export const PROJECT_CONFIG_FOLDERS = [".keel/agents", ".claude/agents", ".claude/commands"] as const;

/** How deep a config folder's subfolders are looked into (`git/commit.md` is one level). */
const FOLDER_DEPTH = 4;

/** The files of a folder and its subfolders, relative to `root`, sorted; none when it is missing. */
function filesUnder(root: string, folder: string, depth = 0): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) =>
      entry.isDirectory()
        ? depth < FOLDER_DEPTH
          ? filesUnder(root, `${folder}/${entry.name}`, depth + 1)
          : []
        : [`${folder}/${entry.name}`],
    );
}

/** The files of the config folders, relative to `dir`. */
function folderFiles(dir: string): string[] {
  return PROJECT_CONFIG_FOLDERS.flatMap((folder) => filesUnder(dir, folder));
}

export interface ProjectConfig {
  /** The project folder's real path: the key of its trust decision. */
  dir: string;
  /** The configuration files it has, relative to `dir` (each plugin of `.keel/plugins` as its folder). */
  files: string[];
  /** Its own plugins' folders, relative to `dir` (`.keel/plugins/<name>`). */
  plugins: string[];
  /** The events its settings files hook (`PreToolUse`): what the folder's trust lets guard a run. */
  hooks: string[];
  /** sha256 over each file's name and bytes. */
  hash: string;
}

function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

export function readProjectConfig(dir: string): ProjectConfig {
  const real = realPath(dir);
  const contents: [string, Buffer][] = [];
  for (const file of [...PROJECT_CONFIG_FILES, ...PROJECT_PLUGIN_FILES, ...folderFiles(real)]) {
    try {
      contents.push([file, readFileSync(join(real, file))]);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      // Unreadable now is still "present": hashing the error keeps a later readable version from matching.
      contents.push([file, Buffer.from(`unreadable: ${code}`)]);
    }
  }
  // The scripts the project's hooks run are part of what is trusted: an edited guard asks again.
  const settings = contents
    .filter(([file]) => file !== ".mcp.json" && (PROJECT_CONFIG_FILES as readonly string[]).includes(file))
    .map(([, bytes]) => bytes.toString("utf8"));
  const hooks = projectHooks(real, settings);
  for (const script of hooks.scripts) {
    if (contents.some(([file]) => file === script)) continue;
    try {
      contents.push([script, readFileSync(join(real, script))]);
    } catch (error) {
      contents.push([script, Buffer.from(`unreadable: ${(error as NodeJS.ErrnoException).code}`)]);
    }
  }
  const folders = projectPluginFolders(real);
  // A folder with no configuration (the usual case) hashes nothing, so its digest is SHA-256's of no input, and
  // such a start does not load node:crypto (~5 ms) to compute it.
  if (contents.length === 0 && folders.length === 0)
    return { dir: real, files: [], plugins: [], hooks: [], hash: NOTHING_HASHED };
  const hash = createHash("sha256");
  const files: string[] = [];
  for (const [file, content] of contents) {
    files.push(file);
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  hashPluginFolders(hash, real, folders);
  const plugins = folders.map((folder) => relative(real, folder));
  return { dir: real, files: [...files, ...plugins], plugins, hooks: hooks.events, hash: hash.digest("hex") };
}
