/**
 * Packages in the other hosts' formats, through the real binary: a Claude Code marketplace in a git repository
 * the test makes lists a Claude Code plugin with every component kind, a Codex plugin, an Agent Plugins package
 * and a Gemini CLI extension (relative paths), and a `strict: false` entry whose components the catalog declares.
 * `market add`, `install`, then in scripted runs against the mock LLM server: the command is in /help and expands
 * its arguments, the skill is offered, the agent is offered by the task tool, the hook (or excluded tool) blocks,
 * the MCP server's tool is listed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { writePackage } from "../support/package-fixtures.ts";

let llm: MockLlm;
let env: KeelEnv;
let repo: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** A git repository holding a Claude Code marketplace of one package per format. */
function marketplace(): string {
  const dir = mkdtempSync(join(tmpdir(), "keel-market-"));
  writePackage(join(dir, "plugins/toolbox"), "claude-code", "toolbox");
  writePackage(join(dir, "plugins/codex-kit"), "codex", "codex-kit");
  writePackage(join(dir, "plugins/portable"), "agent-plugins", "portable");
  writePackage(join(dir, "plugins/gem"), "gemini", "gem");
  mkdirSync(join(dir, "loose/skills/tidy"), { recursive: true });
  mkdirSync(join(dir, "lsp"));
  writeFileSync(join(dir, "lsp/README.md"), "A language server's config, nothing else.\n");
  writeFileSync(join(dir, "loose/skills/tidy/SKILL.md"), "---\nname: tidy\ndescription: Tidy the tree.\n---\nTidy.\n");
  mkdirSync(join(dir, ".claude-plugin"));
  const entry = (name: string, extra: object = {}) => ({ name, source: `./plugins/${name}`, ...extra });
  writeFileSync(
    join(dir, ".claude-plugin/marketplace.json"),
    JSON.stringify({
      name: "formats-market",
      owner: { name: "Test" },
      metadata: { description: "one package per format" },
      renames: { "old-toolbox": "toolbox" },
      plugins: [
        entry("toolbox", { version: "1.2.0" }),
        entry("codex-kit"),
        entry("portable"),
        entry("gem"),
        { name: "loose", source: "./loose", strict: false, skills: ["./skills/tidy"] },
        { name: "lsp-only", source: "./lsp", strict: false, lspServers: { x: { command: "x" } } },
      ],
    }),
  );
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "market");
  return dir;
}

const extraEnv = () => ({ OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" });
const common = ["--provider", "openai", "--model", "gpt-4.1-mini", "--permission-mode", "full"];
const keel = (args: string[]) => runKeel(args, env, { extraEnv: extraEnv(), timeoutMs: 90_000 });
const call = (name: string, args: Record<string, unknown>) => ({ reply: { toolCalls: [{ name, arguments: args }] } });

beforeAll(async () => {
  llm = await startMockLlm();
  env = keelEnv();
  repo = marketplace();
  const added = await keel(["market", "add", `git:file://${repo}`, "--allow-git"]);
  expect(added.code, added.stderr).toBe(0);
}, 120_000);
afterAll(() => llm.close());

describe("installing from a Claude Code marketplace", () => {
  it(
    "installs a Claude Code plugin, showing what it runs, what it does not and the capabilities it implies",
    {
      timeout: 120_000,
    },
    async () => {
      const done = await keel(["install", "old-toolbox", "--allow-git", "--yes"]);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain("old-toolbox: the catalog now lists it as toolbox");
      expect(done.stderr).toMatch(/format: +claude-code; keel runs its skill folders \(1\), command folders \(1\)/);
      expect(done.stderr).toMatch(/not run: +output styles/);
      expect(done.stderr).toMatch(/capabilities: exec \(its contents imply\)/);
      expect(existsSync(join(env.home, "plugins/toolbox/.claude-plugin/plugin.json"))).toBe(true);
    },
  );

  it(
    "installs the Codex, Agent Plugins and Gemini packages and a strict: false entry",
    { timeout: 240_000 },
    async () => {
      for (const name of ["codex-kit", "portable", "gem", "loose"]) {
        const done = await keel(["install", name, "--allow-git", "--yes"]);
        expect(done.code, `${name}: ${done.stderr}`).toBe(0);
      }
      const lsp = await keel(["install", "lsp-only", "--allow-git", "--yes"]);
      expect(lsp.code).not.toBe(0);
      expect(lsp.stderr).toContain("holds nothing keel can run: it has only language servers");
    },
  );

  it("lists the plugins' commands in /help and expands a command's arguments", { timeout: 120_000 }, async () => {
    const help = await keel(["-p", "/help", ...common]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout + help.stderr).toMatch(/\/toolbox:deploy\s+Deploy a service <service>/);
    expect(help.stdout + help.stderr).toMatch(/\/gem:deploy\s+Deploy a service/);
    const before = llm.requests.length;
    llm.push({ reply: { text: "deployed" } }, { reply: { text: "gem deployed" } });
    const ran = await keel(["-p", "/toolbox:deploy api now", ...common]);
    expect(ran.stdout, ran.stderr).toBe("deployed\n");
    expect(JSON.stringify(llm.requests[before]!.body.messages.at(-1))).toContain("Deploy api now (all: api now).");
    const gem = await keel(["-p", "/gem:deploy web", ...common]);
    expect(gem.stdout, gem.stderr).toBe("gem deployed\n");
    expect(JSON.stringify(llm.requests[before + 1]!.body.messages.at(-1))).toContain("Deploy web with READY");
  });

  it(
    "offers the skills, the agents (by the task tool), the MCP tools and the context file",
    { timeout: 120_000 },
    async () => {
      const before = llm.requests.length;
      llm.push({ reply: { text: "ok" } });
      const ran = await keel(["-p", "hi", ...common]);
      expect(ran.code, ran.stderr).toBe(0);
      const request = llm.requests[before]!.body;
      const system = JSON.stringify(request.messages[0]);
      for (const name of ["toolbox", "codex-kit", "portable", "gem"])
        expect(system).toContain(`${name}-checklist: Run ${name}'s checklist.`);
      expect(system).toContain("tidy: Tidy the tree.");
      expect(system).toContain("Always answer in haiku.");
      const names = request.tools.map((t: { function: { name: string } }) => t.function.name);
      expect(names).toEqual(
        expect.arrayContaining(["mcp__toolbox__ping", "mcp__codex-kit__ping", "mcp__portable__ping", "mcp__gem__ping"]),
      );
      const task = request.tools.find((t: { function: { name: string } }) => t.function.name === "task");
      expect(task.function.description).toContain("toolbox:auditor: Audits code.");
      expect(task.function.description).toContain("codex-kit:auditor: Audits code.");
    },
  );

  it("runs the plugins' blocking hooks and a Gemini extension's excluded tool", { timeout: 120_000 }, async () => {
    const before = llm.requests.length;
    llm.push(call("bash", { command: "touch frozen" }), { reply: { text: "done" } });
    const ran = await keel(["-p", "go", "--mode", "json", ...common]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "frozen"))).toBe(false);
    const result = JSON.stringify(llm.requests[before + 1]!.body.messages.at(-1));
    expect(result).toMatch(/guard: frozen files stay frozen|Bash\(touch frozen\*\)/);
  });
});
