/**
 * Gemini CLI's extensions: `gemini-extension.json` names the extension and holds its MCP servers inline
 * (`${extensionPath}`, `${workspacePath}` and `${/}` filled as Gemini CLI fills them; `httpUrl` is Streamable HTTP,
 * `url` the older SSE), its context file (`contextFileName`, else `GEMINI.md` when there is one), and the tools it
 * excludes (`excludeTools`, Gemini's tool names, kept as deny rules in Claude Code's syntax). Commands are TOML
 * files under `commands/`; skills and agents sit in their usual folders. Themes and prompted settings are named as
 * parts keel does not run.
 */
import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import type { PluginContent } from "@keel/extensions-api";
import { descriptionOf, impliedCapabilities, isObject, nameProblem, outside, pathsOf, versionOf } from "./shared.js";
import type { PackageAdapter } from "./shared.js";

const MANIFEST = "gemini-extension.json";

/** Gemini CLI's built-in tools → Claude Code's names, which keel's rules read; undefined where keel has none. */
export const GEMINI_TOOLS: Readonly<Record<string, string | undefined>> = {
  run_shell_command: "Bash",
  read_file: "Read",
  read_many_files: "Read",
  write_file: "Write",
  replace: "Edit",
  glob: "Glob",
  search_file_content: "Grep",
  grep_search: "Grep",
  list_directory: "LS",
  web_fetch: "WebFetch",
  google_web_search: "WebSearch",
  save_memory: undefined,
  write_todos: "TodoWrite",
};

const KNOWN = new Set(["name", "version", "description", "mcpServers", "contextFileName", "excludeTools"]);
const UNHONOURED: Readonly<Record<string, string>> = {
  themes: "themes (keel's terminal UI has its own)",
  settings: "settings Gemini CLI asks the user for (set the variables they name in the environment)",
  plan: "plan (keel has no plan directory setting)",
};

/** `run_shell_command(rm -rf)` → `Bash(rm -rf*)` (Gemini matches a command's start); undefined when unmapped. */
export function geminiRule(written: string): string | undefined {
  const match = /^([A-Za-z0-9_]+)(?:\((.*)\))?$/s.exec(written.trim());
  if (!match) return undefined;
  const tool = Object.hasOwn(GEMINI_TOOLS, match[1]!)
    ? GEMINI_TOOLS[match[1]!]
    : match[1]!.startsWith("mcp__")
      ? match[1]
      : undefined;
  if (!tool) return undefined;
  return match[2] === undefined ? tool : `${tool}(${match[2].trim()}${tool === "Bash" ? "*" : ""})`;
}

function server(entry: unknown, dir: string): unknown {
  if (!isObject(entry)) return entry;
  const fill = (value: unknown): unknown =>
    typeof value === "string"
      ? value.replace(/\$\{(extensionPath|workspacePath|\/|pathSeparator)\}/g, (_, name: string) =>
          name === "extensionPath" ? dir : name === "workspacePath" ? process.cwd() : sep,
        )
      : Array.isArray(value)
        ? value.map(fill)
        : isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]))
          : value;
  const { httpUrl, url, trust: _trust, timeout: _timeout, includeTools: _inc, excludeTools: _exc, ...rest } = entry;
  const out = fill(rest) as Record<string, unknown>;
  if (typeof httpUrl === "string") return { ...out, type: "http", url: fill(httpUrl) };
  if (typeof url === "string") return { ...out, type: "sse", url: fill(url) };
  return out;
}

/** The variables an extension's prompted settings are kept in: the environment it reads. */
function settingsEnv(settings: unknown): string[] {
  if (!Array.isArray(settings)) return [];
  return settings.flatMap((s) => (isObject(s) && typeof s.envVar === "string" ? [`env:${s.envVar}`] : []));
}

export const GEMINI: PackageAdapter = {
  format: "gemini",
  manifest: MANIFEST,
  title: "Gemini CLI extension",
  read(dir, raw) {
    const problem = nameProblem(raw.name, MANIFEST);
    if (problem) return { refused: problem };
    const unhonoured = Object.keys(raw)
      .filter((key) => !KNOWN.has(key))
      .map((key) => UNHONOURED[key] ?? `the field "${key}" (not one keel knows)`);
    const servers = isObject(raw.mcpServers)
      ? Object.fromEntries(Object.entries(raw.mcpServers).map(([name, entry]) => [name, server(entry, dir)]))
      : undefined;
    for (const [name, entry] of Object.entries(isObject(raw.mcpServers) ? raw.mcpServers : {}))
      for (const key of ["includeTools", "excludeTools"])
        if (isObject(entry) && entry[key] !== undefined)
          unhonoured.push(`mcpServers.${name}.${key} (every tool of the server is offered)`);
    const excluded = Array.isArray(raw.excludeTools) ? raw.excludeTools.map(String) : [];
    const deny = excluded.flatMap((tool) => {
      const rule = geminiRule(tool);
      if (!rule) unhonoured.push(`excludeTools "${tool}" (keel has no such tool, so there is nothing to exclude)`);
      return rule ? [rule] : [];
    });
    if (existsSync(join(dir, "hooks", "hooks.json")))
      unhonoured.push("hooks/hooks.json (Gemini CLI's hook events are not Claude Code's; none of them run)");
    const context = pathsOf(dir, raw.contextFileName, "GEMINI.md");
    const content: PluginContent = {
      format: "gemini",
      commands: pathsOf(dir, undefined, "commands"),
      agents: pathsOf(dir, undefined, "agents"),
      hooks: [],
      mcpServers: servers ? [servers] : [],
      instructions: context,
      deny,
      unhonoured,
    };
    const escaping = context.find(outside);
    if (escaping) return { refused: `${MANIFEST} names "${escaping}", which is outside the extension's folder` };
    return {
      name: raw.name as string,
      version: versionOf(raw),
      ...descriptionOf(raw),
      skills: pathsOf(dir, undefined, "skills"),
      content,
      capabilities: [...impliedCapabilities([], servers ? [servers] : []), ...settingsEnv(raw.settings)],
    };
  },
};
