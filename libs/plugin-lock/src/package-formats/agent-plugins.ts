/**
 * Agent Plugins 1.0 (agentplugins/agent-plugins-spec): a root `plugin.json` whose `$schema` names the spec's
 * version, `skills/` (each child folder with a `SKILL.md`) and `mcp.json` (`$schema` and `mcpServers`, each server
 * `stdio`, `streamable-http` or `sse`). The spec's rules applied here: an unknown top-level field is reported and
 * ignored; a stdio `command` starting `./` is the plugin's file; `cwd` defaults to the plugin's folder;
 * `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` are filled in `args`, `env` and `cwd`, and both are set in the server's
 * environment; a bad `mcp.json` disables MCP for the plugin, a bad server skips that server, each said.
 */
import { statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { PluginContent } from "@keel/extensions-api";
import { descriptionOf, impliedCapabilities, isObject, readJson, versionOf, type PackageAdapter } from "./shared.js";

const SCHEMA = /^https:\/\/agent-plugins\.org\/schemas\/(1\.[01]\.0)\/(plugin|mcp)\.schema\.json$/;
const FIELDS = new Set([
  "$schema",
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "extensions",
]);
const NAME = /^(?!.*--)(?!.*\.\.)[a-z0-9]([a-z0-9.-]{0,62}[a-z0-9])?$/;

/** The folder a plugin keeps data in across updates: beside the plugins, never listed as one. */
export const pluginDataDir = (dir: string) => join(dirname(dir), ".data", basename(dir));

function fill(text: string, root: string, data: string): string {
  return text.replace(/\$\{(PLUGIN_ROOT|PLUGIN_DATA)\}/g, (_, name: string) => (name === "PLUGIN_ROOT" ? root : data));
}

/** One server in keel's (Claude Code's) entry shape, or why the spec makes it invalid. */
function server(entry: unknown, root: string, data: string): Record<string, unknown> | string {
  if (!isObject(entry)) return "it is not an object";
  if (entry.type === "stdio") {
    if (typeof entry.command !== "string" || entry.command === "") return "a stdio server needs a command";
    const env = isObject(entry.env) ? entry.env : {};
    if ("PLUGIN_ROOT" in env || "PLUGIN_DATA" in env) return "its env may not set PLUGIN_ROOT or PLUGIN_DATA";
    const command = entry.command.startsWith("./") ? resolve(root, entry.command) : entry.command;
    const args = Array.isArray(entry.args) ? entry.args.map((a) => fill(String(a), root, data)) : [];
    const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(String(v), root, data)]));
    const cwd = typeof entry.cwd === "string" ? fill(entry.cwd, root, data) : root;
    if (!cwd.startsWith(root) && !cwd.startsWith(data)) return `its cwd "${entry.cwd}" is outside the plugin's folders`;
    return { command, args, env: { ...filled, PLUGIN_ROOT: root, PLUGIN_DATA: data }, cwd: resolve(root, cwd) };
  }
  if (entry.type === "streamable-http" || entry.type === "sse") {
    if (typeof entry.url !== "string" || !/^https?:\/\//.test(entry.url)) return "it needs an http(s) url";
    return {
      type: entry.type === "sse" ? "sse" : "http",
      url: entry.url,
      ...(isObject(entry.headers) && { headers: entry.headers }),
    };
  }
  return `its type ${JSON.stringify(entry.type)} is not stdio, streamable-http or sse`;
}

/** The servers of `mcp.json`, mapped; what was skipped goes to `unhonoured`. */
function mcpServers(dir: string, version: string, unhonoured: string[]): Record<string, unknown> | undefined {
  const read = readJson(join(dir, "mcp.json"));
  if (!read) return undefined;
  const bad = (why: string) => void unhonoured.push(`mcp.json (${why}; no MCP server of this plugin starts)`);
  if ("problem" in read) return bad("it is not JSON");
  const value = read.value;
  if (!isObject(value) || !isObject(value.mcpServers)) return bad("it has no mcpServers object");
  const schema = typeof value.$schema === "string" ? SCHEMA.exec(value.$schema) : null;
  if (!schema || schema[2] !== "mcp") return bad("its $schema is not an Agent Plugins MCP schema");
  if (schema[1] !== version) return bad(`its $schema is version ${schema[1]}, plugin.json's is ${version}`);
  const out: Record<string, unknown> = {};
  const data = pluginDataDir(dir);
  for (const [name, entry] of Object.entries(value.mcpServers)) {
    const mapped = server(entry, dir, data);
    if (typeof mapped === "string") unhonoured.push(`the MCP server "${name}" in mcp.json (${mapped})`);
    else out[name] = mapped;
  }
  return out;
}

/** `skills/` when it is a folder; present but not one makes skills invalid, said (§6.2). */
function skillsFolder(dir: string, unhonoured: string[]): string[] {
  const stat = statSync(join(dir, "skills"), { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) unhonoured.push("skills (it is not a folder, so no skill loads)");
  return stat?.isDirectory() ? ["skills"] : [];
}

export const AGENT_PLUGINS: PackageAdapter = {
  format: "agent-plugins",
  manifest: "plugin.json",
  title: "Agent Plugins package",
  claims: (raw) => isObject(raw) && typeof raw.$schema === "string" && raw.$schema.includes("agent-plugins.org"),
  read(dir, raw) {
    const schema = typeof raw.$schema === "string" ? SCHEMA.exec(raw.$schema) : null;
    if (!schema || schema[2] !== "plugin")
      return {
        refused:
          `plugin.json's $schema ${JSON.stringify(raw.$schema)} is not an Agent Plugins version keel reads ` +
          "(1.0.0, 1.1.0)",
      };
    if (typeof raw.name !== "string" || !NAME.test(raw.name))
      return {
        refused:
          `plugin.json's name ${JSON.stringify(raw.name)} is not an Agent Plugins name ` +
          "(a-z, 0-9, - and ., at most 64)",
      };
    const unhonoured = Object.keys(raw)
      .filter((key) => !FIELDS.has(key))
      .map((key) => `the field "${key}" (not an Agent Plugins field; ignored as the spec says)`);
    if (isObject(raw.extensions))
      for (const namespace of Object.keys(raw.extensions))
        unhonoured.push(`extensions."${namespace}" (another client's; keel implements no extension namespace)`);
    const servers = mcpServers(dir, schema[1]!, unhonoured);
    const content: PluginContent = {
      format: "agent-plugins",
      commands: [],
      agents: [],
      hooks: [],
      mcpServers: servers ? [servers] : [],
      instructions: [],
      deny: [],
      unhonoured,
    };
    return {
      name: raw.name,
      version: versionOf(raw),
      ...descriptionOf(raw),
      skills: skillsFolder(dir, unhonoured),
      content,
      capabilities: impliedCapabilities([], servers ? [servers] : []),
    };
  },
};
