/**
 * What the format adapters share: reading a package's JSON files without throwing, listing the paths a manifest
 * field names (one path, a list, or absent → the format's default when it exists), and the capabilities a
 * package's contents imply: a command hook or a local MCP server runs a program (`exec`), a remote one reaches
 * its host (`net:<host>`), and each `${NAME}` it reads from the environment is `env:<NAME>`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageFormat, PluginContent } from "@keel/extensions-api";

/** What an adapter makes of a package: a manifest's parts, or why keel cannot load it. */
export type Adapted =
  | {
      name: string;
      version: string;
      description?: string;
      /** Folders of skills (`keel.skills`). */
      skills: string[];
      content: PluginContent;
      capabilities: string[];
    }
  | { refused: string };

export interface PackageAdapter {
  format: PackageFormat;
  /** The manifest file that marks a package of this format, relative to its folder. */
  manifest: string;
  /** Who defines the format, for messages and docs/formats.md. */
  title: string;
  /** Whether the manifest at `file` is this format's (a root plugin.json may be another tool's). */
  claims?(raw: unknown): boolean;
  read(dir: string, raw: Record<string, unknown>): Adapted;
}

/** A JSON file's value; undefined when absent, a string saying why when it cannot be read. */
export function readJson(file: string): { value: unknown } | { problem: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: `${file} is not JSON (${(error as Error).message})` };
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The paths a field names (a string or a list of strings), else `fallback` when that exists in `dir`. */
export function pathsOf(dir: string, value: unknown, fallback?: string): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return fallback !== undefined && existsSync(join(dir, fallback)) ? [fallback] : [];
}

/** A path the manifest gives that leaves the package (`../x`, `/etc`): refused, as every format requires. */
export function outside(path: string): boolean {
  return path.startsWith("/") || path.split(/[\\/]/).includes("..");
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;
/** Variables a host fills itself: not the user's environment. */
const HOST_VARIABLES = new Set([
  "CLAUDE_PLUGIN_ROOT",
  "CLAUDE_PROJECT_DIR",
  "KEEL_PLUGIN_ROOT",
  "PLUGIN_ROOT",
  "PLUGIN_DATA",
  "extensionPath",
  "workspacePath",
  "pathSeparator",
]);

/** Capabilities the package's hooks and MCP servers imply, in a stable order. */
export function impliedCapabilities(hooks: unknown[], servers: Record<string, unknown>[]): string[] {
  const out = new Set<string>();
  const envOf = (text: string) => {
    for (const m of text.matchAll(VARIABLE)) if (!HOST_VARIABLES.has(m[1]!)) out.add(`env:${m[1]}`);
  };
  const netOf = (url: unknown) => {
    if (typeof url !== "string") return;
    envOf(url);
    const host = /^https?:\/\/([^/:?#]+)/.exec(url)?.[1];
    out.add(host && !host.includes("$") ? `net:${host.toLowerCase()}` : "net:*");
  };
  for (const config of hooks)
    for (const groups of Object.values(isObject(config) ? config : {}))
      for (const group of Array.isArray(groups) ? groups : [])
        for (const hook of isObject(group) && Array.isArray(group.hooks) ? group.hooks : []) {
          if (!isObject(hook)) continue;
          if (hook.type === "command" || (hook.type === undefined && typeof hook.command === "string")) {
            out.add("exec");
            envOf(String(hook.command ?? ""));
          } else if (hook.type === "http") netOf(hook.url);
        }
  for (const entries of servers)
    for (const entry of Object.values(entries)) {
      if (!isObject(entry)) continue;
      if (typeof entry.command === "string") {
        out.add("exec");
        envOf(JSON.stringify([entry.command, entry.args ?? [], entry.env ?? {}]));
      } else netOf(entry.url ?? entry.httpUrl);
      if (isObject(entry.headers)) envOf(JSON.stringify(entry.headers));
    }
  return [...out].sort((a, b) => (a === "exec" ? -1 : b === "exec" ? 1 : a < b ? -1 : 1));
}

/** The `hooks` object of a hooks file or of an inline value (`{ "hooks": … }` or the events themselves). */
export function hooksObject(value: unknown): unknown {
  return isObject(value) && isObject(value.hooks) ? value.hooks : value;
}

/** The servers of an MCP file or inline value (`{ "mcpServers": … }` or the servers themselves). */
export function serversObject(value: unknown): Record<string, unknown> {
  if (!isObject(value)) return {};
  return isObject(value.mcpServers) ? value.mcpServers : value;
}

/** Reads the hooks and servers a content lists, for the capabilities they imply. */
export function contentCapabilities(dir: string, content: PluginContent): string[] {
  const load = (item: string | Record<string, unknown>) => {
    if (typeof item !== "string") return item;
    const read = readJson(join(dir, item));
    return read && "value" in read ? read.value : undefined;
  };
  return impliedCapabilities(
    content.hooks.map((h) => hooksObject(load(h))),
    content.mcpServers.map((s) => serversObject(load(s))),
  );
}

/** The name every format allows and npm does too: lowercase letters, digits, `-`, `.`, `_`. */
export function nameProblem(name: unknown, file: string): string | undefined {
  if (typeof name !== "string" || name.length === 0) return `${file} has no "name"`;
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(name) || name.includes(".."))
    return `${file} names the plugin "${name}"; keel needs lowercase letters, digits, ".", "_" and "-" (at most 64)`;
  return undefined;
}

/** `version` as written, else 0.0.0 (every format makes it optional). */
export const versionOf = (raw: Record<string, unknown>) => (typeof raw.version === "string" && raw.version) || "0.0.0";
export const descriptionOf = (raw: Record<string, unknown>) =>
  typeof raw.description === "string" && raw.description ? { description: raw.description } : {};

/**
 * What a Claude Code–shaped manifest adapts to, once its paths are known: refused when any names a place outside
 * the plugin's folder (a manifest is a stranger's input), otherwise the plugin with the capabilities its content
 * implies.
 */
export function adaptedContent(
  dir: string,
  file: string,
  raw: Record<string, unknown>,
  skills: string[],
  content: PluginContent,
): Adapted {
  const paths = [...content.commands, ...content.agents, ...skills, ...content.hooks, ...content.mcpServers];
  const escaping = paths.find((p) => typeof p === "string" && outside(p));
  if (escaping) return { refused: `${file} names "${escaping}", which is outside the plugin's folder` };
  return {
    name: raw.name as string,
    version: versionOf(raw),
    ...descriptionOf(raw),
    skills,
    content,
    capabilities: contentCapabilities(dir, content),
  };
}
