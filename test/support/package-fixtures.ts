/**
 * Packages in the other hosts' formats, written by the tests that install and run them: a Claude Code plugin with
 * every component kind, a Codex plugin, an Agent Plugins package and a Gemini CLI extension. Each has a blocking
 * guard (a hook, or a Gemini extension's excluded tool), a skill (`<name>-checklist`), and a tiny MCP server over
 * stdio named as the package, whose one tool answers `pong`; the Claude Code and Gemini ones a command, the
 * Claude Code and Codex ones an agent.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PackageFormat } from "@keel/extensions-api";

/** A whole MCP server over stdio in one file: `initialize`, `tools/list` (one tool, `ping`), `tools/call`. */
export const PING_SERVER = `import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === "initialize")
    return send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: "ping", version: "1.0.0" } } });
  if (method === "tools/list")
    return send({ id, result: { tools: [{ name: "ping", description: "Answers pong.",
      inputSchema: { type: "object", properties: {} } }] } });
  if (method === "tools/call") return send({ id, result: { content: [{ type: "text", text: "pong" }] } });
  send({ id, error: { code: -32601, message: "no method " + method } });
});
`;

/** Refuses a bash call that touches `frozen`, as Claude Code's hooks do: exit 2, the reason on stderr. */
const GUARD = "#!/bin/sh\ngrep -q 'touch frozen' && { echo 'guard: frozen files stay frozen' >&2; exit 2; }\nexit 0\n";
const HOOKS = {
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh" }] }],
  },
};
const skill = (name: string) => `---\nname: ${name}-checklist\ndescription: Run ${name}'s checklist.\n---\nCheck.\n`;
const AGENT = "---\nname: auditor\ndescription: Audits code.\ntools: Read, Grep\n---\nYou audit.\n";
const COMMAND = "---\ndescription: Deploy a service\nargument-hint: <service>\n---\nDeploy $1 now (all: $ARGUMENTS).\n";
const claudeMcp = (name: string) => ({
  mcpServers: { [name]: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/server.mjs"] } },
});

function files(format: PackageFormat, name: string): Record<string, string> {
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  switch (format) {
    case "claude-code":
      return {
        ".claude-plugin/plugin.json": json({
          name,
          version: "1.2.0",
          description: "every kind",
          outputStyles: "./styles",
        }),
        "commands/deploy.md": COMMAND,
        "agents/auditor.md": AGENT,
        "skills/checklist/SKILL.md": skill(name),
        "hooks/hooks.json": json(HOOKS),
        "hooks/guard.sh": GUARD,
        ".mcp.json": json(claudeMcp(name)),
        "server.mjs": PING_SERVER,
      };
    case "codex":
      return {
        ".codex-plugin/plugin.json": json({
          name,
          version: "0.3.0",
          description: "a Codex plugin",
          skills: "./skills/",
          mcpServers: "./.mcp.json",
          hooks: "./hooks/hooks.json",
          apps: "./.app.json",
          interface: { displayName: "Codex test" },
        }),
        "agents/auditor.md": AGENT,
        "skills/checklist/SKILL.md": skill(name),
        "hooks/hooks.json": json(HOOKS),
        "hooks/guard.sh": GUARD,
        ".mcp.json": json(claudeMcp(name)),
        ".app.json": json({ apps: {} }),
        "server.mjs": PING_SERVER,
      };
    case "agent-plugins":
      return {
        "plugin.json": json({
          $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
          name,
          version: "1.0.0",
          description: "an Agent Plugins package",
        }),
        "skills/checklist/SKILL.md": skill(name),
        "mcp.json": json({
          $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
          mcpServers: { [name]: { type: "stdio", command: "node", args: ["${PLUGIN_ROOT}/server.mjs"] } },
        }),
        "server.mjs": PING_SERVER,
      };
    case "gemini":
      return {
        "gemini-extension.json": json({
          name,
          version: "2.0.0",
          description: "a Gemini CLI extension",
          contextFileName: "CONTEXT.md",
          excludeTools: ["run_shell_command(touch frozen)"],
          mcpServers: { [name]: { command: "node", args: ["${extensionPath}${/}server.mjs"] } },
          themes: [],
        }),
        "CONTEXT.md": "Always answer in haiku.\n",
        "commands/deploy.toml": 'description = "Deploy a service"\nprompt = "Deploy {{args}} with !{echo READY}."\n',
        "skills/checklist/SKILL.md": skill(name),
        "server.mjs": PING_SERVER,
      };
  }
}

/** Writes the package of `format` named `name` into `dir` (made), and returns `dir`. */
export function writePackage(dir: string, format: PackageFormat, name: string): string {
  for (const [path, text] of Object.entries(files(format, name))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  if (format === "claude-code" || format === "codex") chmodSync(join(dir, "hooks/guard.sh"), 0o755);
  return dir;
}
