/**
 * Claude Code's plugins: `.claude-plugin/plugin.json` names the plugin, and its components sit in default folders
 * (`commands/`, `agents/`, `skills/`, `hooks/hooks.json`, `.mcp.json`) or in paths the manifest gives, which add
 * to the defaults. Hooks and MCP servers may also be written inline. Output styles and language servers are parts
 * keel does not run: they are named, never dropped in silence. A catalog entry with `strict: false` is its own
 * manifest; the installer writes it into the plugin's folder as this file (libs/installer/src/strict-entry.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PluginContent } from "@keel/extensions-api";
import { adaptedContent, isObject, nameProblem, pathsOf, type Adapted, type PackageAdapter } from "./shared.js";

const MANIFEST = ".claude-plugin/plugin.json";
const METADATA = new Set(["$schema", "name", "version", "description", "author", "homepage", "repository"]);
const METADATA_MORE = new Set(["license", "keywords", "category", "tags", "displayName", "strict", "source"]);

/** Claude Code's component fields keel does not run, and why. */
export const CLAUDE_UNHONOURED: Readonly<Record<string, string>> = {
  outputStyles: "output styles (keel has no output styles; the context plugin writes the system prompt)",
  lspServers: "language servers (keel has no LSP client)",
  userConfig: "userConfig (keel asks for no plugin options; set what the plugin reads in the environment)",
  monitors: "monitors (keel does not run background monitors)",
  channels: "channels (keel has no message channels)",
  dependencies: "dependencies on other Claude Code plugins (install each one yourself)",
  settings: "default settings of a plugin",
};

/** Files in the default places that keel does not run. */
const UNHONOURED_FILES: Readonly<Record<string, string>> = {
  "output-styles": CLAUDE_UNHONOURED.outputStyles!,
  ".lsp.json": CLAUDE_UNHONOURED.lspServers!,
  "settings.json": CLAUDE_UNHONOURED.settings!,
  "monitors/monitors.json": CLAUDE_UNHONOURED.monitors!,
};

/** A path field's or an inline object's entries; inline objects kept as they are. */
function fileOrInline(dir: string, value: unknown, fallback: string): (string | Record<string, unknown>)[] {
  const defaults = existsSync(join(dir, fallback)) ? [fallback] : [];
  if (isObject(value)) return [...defaults, value];
  const given = pathsOf(dir, value);
  return [...defaults, ...given.filter((p) => !defaults.includes(p.replace(/^\.\//, "")))];
}

/** Reads a Claude Code plugin whose manifest is `raw`; `file` names it in messages. */
export function readClaudeCode(dir: string, raw: Record<string, unknown>, file = MANIFEST): Adapted {
  const problem = nameProblem(raw.name, file);
  if (problem) return { refused: problem };
  const unhonoured: string[] = [];
  for (const key of Object.keys(raw)) {
    if (METADATA.has(key) || METADATA_MORE.has(key)) continue;
    if (["commands", "agents", "skills", "hooks", "mcpServers"].includes(key)) continue;
    unhonoured.push(CLAUDE_UNHONOURED[key] ?? `the field "${key}" (not one keel knows)`);
  }
  for (const [path, why] of Object.entries(UNHONOURED_FILES))
    if (existsSync(join(dir, path)) && !unhonoured.includes(why)) unhonoured.push(`${why}: ${path}`);
  const folders = (value: unknown, fallback: string) => {
    const defaults = existsSync(join(dir, fallback)) ? [fallback] : [];
    const given = pathsOf(dir, value).filter((p) => !defaults.includes(p.replace(/^\.\//, "").replace(/\/$/, "")));
    return [...defaults, ...given];
  };
  const content: PluginContent = {
    format: "claude-code",
    commands: folders(raw.commands, "commands"),
    agents: folders(raw.agents, "agents"),
    hooks: fileOrInline(dir, raw.hooks, "hooks/hooks.json"),
    mcpServers: fileOrInline(dir, raw.mcpServers, ".mcp.json"),
    instructions: [],
    deny: [],
    unhonoured,
  };
  const skills = folders(raw.skills, "skills");
  return adaptedContent(dir, file, raw, skills, content);
}

export const CLAUDE_CODE: PackageAdapter = {
  format: "claude-code",
  manifest: MANIFEST,
  title: "Claude Code plugin",
  read: (dir, raw) => readClaudeCode(dir, raw),
};
