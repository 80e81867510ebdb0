/**
 * Settings: the distribution's defaults, then `$KEEL_HOME/settings.json` (user), then `.keel/settings.json` with
 * the project's `.claude/settings.json` and `.mcp.json` (project, only what its trust allows), then `--settings`,
 * merged in that order (objects merge key by key, anything else replaces), and the managed layer over all of them
 * (managed.ts). A file that cannot be read is skipped with a warning naming it; the agent still runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mcpServersOf } from "@keel/extensions-api/mcp-config";
import { CLAUDE_SETTINGS_FILES, mapClaudeSettings, type McpChoice } from "./claude-settings.js";

export type SettingsObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is SettingsObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep merge: later layers win; plain objects merge recursively. A list at one of the `adding` paths
 * (`"permissions.deny"`, from plugins' `keel.addingLists`; `"hooks.*"` for every key of `hooks`) is added to the
 * list below instead of replacing it, and a layer cannot take it away: a value that is not a list over it (`null`)
 * is ignored, as is one that is not an object over a section whose every key adds (`"hooks": null` over `hooks.*`).
 * Only the managed layer, laid over later (managed.ts), is above this rule.
 */
export function mergeSettings(
  layers: (SettingsObject | undefined)[],
  adding: ReadonlySet<string> = new Set(),
  path = "",
): SettingsObject {
  const out: SettingsObject = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      const current = out[key];
      const at = path ? `${path}.${key}` : key;
      const adds = adding.has(at) || adding.has(`${path}.*`);
      if (isPlainObject(current) && isPlainObject(value)) out[key] = mergeSettings([current, value], adding, at);
      else if (Array.isArray(current) && adds) out[key] = Array.isArray(value) ? union(current, value) : current;
      else if (isPlainObject(current) && adding.has(`${at}.*`)) continue;
      else out[key] = value;
    }
  }
  return out;
}

/** `below` with the items of `above` it lacks (compared as JSON), in order. */
export function union(below: unknown[], above: unknown[]): unknown[] {
  const seen = new Set(below.map((v) => JSON.stringify(v)));
  return [...below, ...above.filter((v) => !seen.has(JSON.stringify(v)))];
}

/** Reads one settings file: undefined when absent, a warning when unreadable. */
export function readSettingsFile(path: string, warnings: string[]): SettingsObject | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    warnings.push(`Settings file ${path} could not be read (${(error as Error).message}); it was ignored.`);
    return undefined;
  }
  try {
    // Editors on Windows start UTF-8 files with a byte-order mark; JSON.parse rejects it.
    const value: unknown = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
    if (isPlainObject(value)) return value;
    warnings.push(`Settings file ${path} must hold a JSON object; it was ignored.`);
  } catch (error) {
    warnings.push(
      `Settings file ${path} is not valid JSON (${(error as Error).message}); it was ignored. Fix ` +
        `the file or delete it.`,
    );
  }
  return undefined;
}

/** `--settings` takes inline JSON or a path to a JSON file; `errors` receives why a value cannot be used. */
export function parseSettingsArg(arg: string, cwd: string, errors: string[]): SettingsObject | undefined {
  const trimmed = arg.trim();
  if (trimmed.startsWith("{")) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isPlainObject(value)) return value;
    } catch (error) {
      errors.push(
        `--settings is not valid JSON (${(error as Error).message}). Fix it, or pass the path of a JSON file.`,
      );
      return undefined;
    }
  }
  return (
    readSettingsFile(join(cwd, trimmed), errors) ??
    (errors.push(`--settings ${trimmed}: no such file in ${cwd} (and it is not inline JSON).`), undefined)
  );
}

/** Every settings layer, unmerged: which of them apply depends on the project folder's trust. */
export interface SettingLayers {
  defaults?: SettingsObject;
  user?: SettingsObject;
  /** `.keel/settings.json` as the project wrote it, with its Claude Code settings and `.mcp.json` (`projectLayer`). */
  project?: SettingsObject;
  /** Each `--settings`, in order. */
  extra: SettingsObject[];
  /** The managed layer: above every other, and nothing below can undo it. */
  managed?: SettingsObject;
  managedFile: string;
  userFile: string;
  projectFile: string;
  warnings: string[];
}

/** One settings layer, named as the user knows it (a file path, `--settings`). */
export interface NamedLayer {
  name: string;
  value: SettingsObject | undefined;
}

/** The layers, lowest first, each named as the user knows it (for messages about a key in one of them). */
export function namedLayers(layers: SettingLayers): NamedLayer[] {
  return [
    { name: "the distribution's settings", value: layers.defaults },
    { name: layers.userFile, value: layers.user },
    { name: layers.projectFile, value: layers.project },
    ...layers.extra.map((value, i) => ({
      name: layers.extra.length > 1 ? `--settings #${i + 1}` : "--settings",
      value,
    })),
    { name: layers.managedFile, value: layers.managed },
  ];
}

/**
 * `below` with `above` laid over it, lists added to rather than replaced: two files of one project both speak, so
 * neither takes away what the other set (a list or section over which the other puts `null` stays).
 */
function joinProjectFiles(below: SettingsObject, above: SettingsObject): SettingsObject {
  const out: SettingsObject = { ...below };
  for (const [key, value] of Object.entries(above)) {
    const current = out[key];
    if (isPlainObject(current) && isPlainObject(value)) out[key] = joinProjectFiles(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) out[key] = union(current, value);
    else if ((isPlainObject(current) || Array.isArray(current)) && !isPlainObject(value) && !Array.isArray(value))
      continue;
    else out[key] = value;
  }
  return out;
}

/** The servers of the project's `.mcp.json` (either form), less those its Claude Code settings switch off. */
function projectServers(cwd: string, choice: McpChoice | undefined, warnings: string[]): SettingsObject | undefined {
  const file = join(cwd, ".mcp.json");
  const raw = readSettingsFile(file, warnings);
  if (raw === undefined) return undefined;
  const read = mcpServersOf(raw);
  if ("problem" in read) {
    warnings.push(`${file} adds no MCP server: ${read.problem}.`);
    return undefined;
  }
  const on = (name: string) => !choice?.disabled.includes(name) && (!choice?.enabled || choice.enabled.includes(name));
  return Object.fromEntries(Object.entries(read.servers).filter(([name]) => on(name)));
}

/**
 * The project's layer: `.keel/settings.json` over the project's Claude Code settings (`.claude/settings.json`,
 * mapped in claude-settings.ts), and the servers of its `.mcp.json` (the file Claude Code and other MCP clients
 * read) under `mcpServers`, so that a cloned repository's hooks, rules and servers wait for trust like any
 * project key. A server named in both is the settings file's.
 */
function projectLayer(cwd: string, projectFile: string, warnings: string[]): SettingsObject | undefined {
  let settings: SettingsObject | undefined;
  const mcp: McpChoice = { disabled: [] };
  for (const name of CLAUDE_SETTINGS_FILES) {
    const raw = readSettingsFile(join(cwd, name), warnings);
    if (raw === undefined) continue;
    const claude = mapClaudeSettings(raw, name, warnings);
    settings = joinProjectFiles(settings ?? {}, claude.settings);
    mcp.disabled.push(...claude.mcp.disabled);
    mcp.enabled = claude.mcp.enabled ?? mcp.enabled;
  }
  const own = readSettingsFile(projectFile, warnings);
  if (own) settings = joinProjectFiles(settings ?? {}, own);
  const servers = projectServers(cwd, mcp, warnings);
  if (servers === undefined) return settings;
  const ownServers = isPlainObject(settings?.mcpServers) ? settings.mcpServers : {};
  return { ...settings, mcpServers: { ...servers, ...ownServers } };
}

export function loadSettingLayers(options: {
  keelHome: string;
  cwd: string;
  defaults?: SettingsObject;
  extra?: SettingsObject[];
  managedFile: string;
}): SettingLayers {
  const warnings: string[] = [];
  const userFile = join(options.keelHome, "settings.json");
  const projectFile = join(options.cwd, ".keel", "settings.json");
  return {
    defaults: options.defaults,
    user: readSettingsFile(userFile, warnings),
    project: projectLayer(options.cwd, projectFile, warnings),
    extra: options.extra ?? [],
    managed: readSettingsFile(options.managedFile, warnings),
    managedFile: options.managedFile,
    userFile,
    projectFile,
    warnings,
  };
}
