/**
 * Codex's plugins: `.codex-plugin/plugin.json` names the plugin and points to its components — `skills` (a folder
 * of skills), `mcpServers` (a `.mcp.json` file or the servers inline), `hooks` (a hooks file in Claude Code's
 * shape, which Codex shares) — each defaulting to the usual place. `apps` (ChatGPT app connectors) is a part keel
 * cannot run and is named; `interface` is for Codex's plugin directory only.
 */
import type { PluginContent } from "@keel/extensions-api";
import { adaptedContent, isObject, nameProblem, pathsOf, type PackageAdapter } from "./shared.js";

const MANIFEST = ".codex-plugin/plugin.json";
const KNOWN = new Set([
  "$schema",
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "interface",
  "skills",
  "mcpServers",
  "hooks",
  "commands",
  "agents",
]);

export const CODEX_UNHONOURED: Readonly<Record<string, string>> = {
  apps: "apps (ChatGPT app connectors need OpenAI's app platform; keel has none)",
};

export const CODEX: PackageAdapter = {
  format: "codex",
  manifest: MANIFEST,
  title: "Codex plugin",
  read(dir, raw) {
    const problem = nameProblem(raw.name, MANIFEST);
    if (problem) return { refused: problem };
    const unhonoured = Object.keys(raw)
      .filter((key) => !KNOWN.has(key))
      .map((key) => CODEX_UNHONOURED[key] ?? `the field "${key}" (not one keel knows)`);
    if (pathsOf(dir, undefined, ".app.json").length > 0 && !raw.apps) unhonoured.push(CODEX_UNHONOURED.apps!);
    const inline = (value: unknown, fallback: string) => (isObject(value) ? [value] : pathsOf(dir, value, fallback));
    const content: PluginContent = {
      format: "codex",
      commands: pathsOf(dir, raw.commands, "commands"),
      agents: pathsOf(dir, raw.agents, "agents"),
      hooks: inline(raw.hooks, "hooks/hooks.json"),
      mcpServers: inline(raw.mcpServers, ".mcp.json"),
      instructions: [],
      deny: [],
      unhonoured,
    };
    const skills = pathsOf(dir, raw.skills, "skills");
    return adaptedContent(dir, MANIFEST, raw, skills, content);
  },
};
