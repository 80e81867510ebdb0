/**
 * A project's Claude Code settings and MCP file in keel's project layer: `.claude/settings.json` permission
 * rules in Claude Code's syntax, its mode, hooks (each group naming its file), env and which `.mcp.json`
 * servers start; the local file over the shared one; what keel does not honour said once naming the file; and
 * both files, with `.claude/commands` and `.claude/agents`, waiting for the folder's trust.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookBus } from "@keel/kernel";
import { loadSettingLayers } from "../../core/src/settings/layers.ts";
import { decideProjectTrust } from "../../core/src/trust/decide.ts";
import { TrustStore } from "../../core/src/trust/trust-store.ts";

function project(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "keel-claude-project-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}

const layers = (cwd: string) =>
  loadSettingLayers({ keelHome: join(cwd, "home"), cwd, managedFile: join(cwd, "no-managed.json") });

describe("a project's .claude/settings.json", () => {
  it("maps permission rules in Claude Code's syntax, the mode, hooks, env and the MCP choices", () => {
    const hook = { matcher: "Bash", hooks: [{ type: "command", command: "$CLAUDE_PROJECT_DIR/.claude/hooks/g.sh" }] };
    const cwd = project({
      ".claude/settings.json": {
        $schema: "https://json.schemastore.org/claude-code-settings.json",
        permissions: {
          allow: ["Bash(npm run *)", "Read(/docs/**)"],
          deny: ["Read(./.env)", "Bash(git push:*)", "WebFetch(domain:example.com)"],
          ask: ["Edit(//etc/**)"],
          defaultMode: "acceptEdits",
        },
        hooks: { PreToolUse: [hook] },
        env: { TEAM: "core", RETRIES: 3 },
        disabledMcpjsonServers: ["heavy"],
        statusLine: { type: "command", command: "x" },
      },
      ".mcp.json": { light: { command: "light-server" }, heavy: { command: "heavy-server" } },
    });
    const { project: layer, warnings } = layers(cwd);
    expect(layer).toEqual({
      permissions: {
        allow: ["Bash(npm run *)", "Read(./docs/**)"],
        deny: ["Read(./.env)", "Bash(git push:*)"],
        ask: ["Edit(//etc/**)"],
        mode: "auto",
      },
      hooks: { PreToolUse: [{ ...hook, source: ".claude/settings.json" }] },
      env: { TEAM: "core", RETRIES: "3" },
      mcpServers: { light: { command: "light-server" } },
    });
    expect(warnings).toEqual([
      ".claude/settings.json: keel does not honour permissions.deny WebFetch(domain:example.com) (keel has no such " +
        "tool), statusLine; the rest applies.",
    ]);
  });

  it("adds the local file's rules to the shared file's, and .keel/settings.json's over both", () => {
    const cwd = project({
      ".claude/settings.json": { permissions: { deny: ["Bash(rm:*)"], defaultMode: "plan" } },
      ".claude/settings.local.json": { permissions: { deny: ["Read(./secrets/**)"] } },
      ".keel/settings.json": { permissions: { deny: ["bash(curl *)"], mode: "full" } },
    });
    expect(layers(cwd).project).toEqual({
      permissions: { deny: ["Bash(rm:*)", "Read(./secrets/**)", "bash(curl *)"], mode: "full" },
    });
  });

  it("reads a flat .mcp.json, and says why a file holds no server", () => {
    const flat = project({ ".mcp.json": { docs: { type: "sse", url: "https://example.com/sse" } } });
    expect(layers(flat).project).toEqual({ mcpServers: { docs: { type: "sse", url: "https://example.com/sse" } } });
    const wrong = project({ ".mcp.json": { servers: [] } });
    expect(layers(wrong).warnings).toEqual([expect.stringContaining('adds no MCP server: it has no "mcpServers"')]);
  });
});

describe("trust over Claude Code's project files", () => {
  const decide = (cwd: string) => {
    const { project: settings } = layers(cwd);
    return decideProjectTrust({
      cwd,
      project: settings,
      store: new TrustStore(mkdtempSync(join(tmpdir(), "keel-home-"))),
      hooks: new HookBus(() => undefined),
      options: {},
      isCliCommand: () => false,
      command: "keel",
      warnings: [],
      activateDeciders: async () => undefined,
    });
  };

  it("holds the settings' hooks and rules, and the command and agent folders, naming each file once", async () => {
    const cwd = project({
      ".claude/settings.json": { hooks: { Stop: [] }, permissions: { deny: ["Bash(rm:*)"] } },
      ".claude/commands/git/commit.md": "Commit\n",
      ".claude/commands/review.md": "Review\n",
      ".claude/agents/scout.md": "---\ndescription: x\n---\n",
      ".claude/skills/tidy/SKILL.md": "---\ndescription: x\n---\n",
    });
    const trust = await decide(cwd);
    expect(trust.trusted).toBe(false);
    expect(trust.config.files).toEqual([
      ".claude/settings.json",
      ".claude/agents/scout.md",
      ".claude/commands/git/commit.md",
      ".claude/commands/review.md",
    ]);
    expect(trust.held).toEqual(["permissions.deny", "hooks.Stop", ".claude/agents", ".claude/commands"]);
    expect(trust.notice).toContain("what its .claude/settings.json, .claude/agents, .claude/commands set");
  });
});
