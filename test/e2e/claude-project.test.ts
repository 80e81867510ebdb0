/**
 * A project that keeps Claude Code's configuration, through the real binary against the mock LLM server:
 * `.claude/settings.json` deny rules and a blocking hook (its script under `.claude/hooks`, found through
 * `$CLAUDE_PROJECT_DIR`) hold once the folder is trusted; untrusted, the hook does not run, its deny rules
 * still narrow, and the skip is said once naming the file; `.claude/commands`, `.claude/agents` and
 * `.claude/skills` work in a scripted run.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());

const settings = {
  permissions: { deny: ["Read(./.env)", "Bash(curl:*)"] },
  hooks: {
    PreToolUse: [
      { matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] },
    ],
  },
};
const GUARD = "#!/bin/sh\ngrep -q 'touch frozen' && { echo 'guard: frozen files stay frozen' >&2; exit 2; }\nexit 0\n";

function claudeProject(): KeelEnv {
  const env = keelEnv({
    files: {
      ".claude/settings.json": JSON.stringify(settings),
      ".claude/hooks/guard.sh": GUARD,
      ".env": "SECRET=1\n",
    },
  });
  chmodSync(join(env.cwd, ".claude/hooks/guard.sh"), 0o755);
  return env;
}

const call = (name: string, args: Record<string, unknown>) => ({ reply: { toolCalls: [{ name, arguments: args }] } });

/** `keel -p` in JSON mode with everything allowed but what the project's rules and hooks refuse. */
async function run(env: KeelEnv, extra: string[] = []) {
  llm.push(
    call("bash", { command: "touch frozen" }),
    call("read", { path: ".env" }),
    call("bash", { command: "curl https://example.com" }),
    { reply: { text: "done" } },
  );
  const result = await runKeel(
    [
      "-p",
      "go",
      "--mode",
      "json",
      "--provider",
      "openai",
      "--model",
      "gpt-4.1-mini",
      "--permission-mode",
      "full",
      ...extra,
    ],
    env,
    { extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" }, timeoutMs: 60_000 },
  );
  const events = result.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; toolName?: string; result?: { content: { text: string }[] } });
  const results = events
    .filter((e) => e.type === "tool_execution_end")
    .map((e) => `${e.toolName}: ${e.result!.content.map((c) => c.text).join("")}`);
  return { ...result, results };
}

describe("a project's .claude/settings.json", () => {
  it("blocks with its hook and denies with its rules once the folder is trusted", async () => {
    const env = claudeProject();
    const trusted = await run(env, ["--trust"]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "frozen"))).toBe(false);
    expect(trusted.results[0]).toContain("guard: frozen files stay frozen");
    expect(trusted.results[1]).toMatch(/read: .*Permission denied.*Read\(\.\/\.env\)/);
    expect(trusted.results[2]).toMatch(/bash: .*Permission denied.*Bash\(curl:\*\)/);
    expect(trusted.stderr).not.toContain("not trusted");
  });

  it("untrusted: no hook runs, its deny rules still narrow, the skip is said once naming the file", async () => {
    const env = claudeProject();
    const untrusted = await run(env);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "frozen"))).toBe(true);
    expect(untrusted.results[1]).toContain("Permission denied");
    const notices = untrusted.stderr.split("\n").filter((line) => line.includes("not trusted"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(".claude/settings.json");
    expect(notices[0]).toContain("hooks.PreToolUse");
  });
});

describe("commands, agents and skills from .claude/", () => {
  function project(): KeelEnv {
    const env = keelEnv({
      files: {
        ".claude/commands/git/summary.md":
          "---\ndescription: Summarise the tree\nargument-hint: [focus]\n---\n" +
          "State: !`echo CLEAN-TREE`\nFocus on $ARGUMENTS.\n",
        ".claude/agents/scout.md":
          "---\nname: scout\ndescription: Finds files.\ntools: Read, Grep, Glob\nmodel: inherit\n---\n" +
          "You are the scout.\n",
        ".claude/skills/changelog/SKILL.md":
          "---\nname: changelog\ndescription: Write the changelog entry.\nallowed-tools: Read\n---\nSteps\n",
      },
    });
    mkdirSync(join(env.cwd, ".git"));
    writeFileSync(join(env.cwd, ".git/HEAD"), "ref: refs/heads/main\n");
    return env;
  }
  const common = ["--provider", "openai", "--model", "gpt-4.1-mini", "--trust"];
  const extraEnv = () => ({ OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" });

  it("lists the command in /help and runs it with its ! line and arguments filled in", async () => {
    const env = project();
    const help = await runKeel(["-p", "/help", ...common], env, { extraEnv: extraEnv(), timeoutMs: 60_000 });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout + help.stderr).toMatch(/\/git:summary\s+Summarise the tree \[focus\]/);
    const before = llm.requests.length;
    llm.push({ reply: { text: "All clean." } });
    const ran = await runKeel(["-p", "/git:summary the parser", ...common], env, {
      extraEnv: extraEnv(),
      timeoutMs: 60_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe("All clean.\n");
    const sent = JSON.stringify(llm.requests[before]!.body.messages.at(-1));
    expect(sent).toContain("State: CLEAN-TREE");
    expect(sent).toContain("Focus on the parser.");
  });

  it("offers the skill to the model and the agent to the task tool, which runs it with its tools", async () => {
    const env = project();
    const before = llm.requests.length;
    llm.push(
      call("task", { description: "look", prompt: "find the parser", agent: "scout" }),
      { reply: { text: "SCOUT REPORT" } },
      { reply: { text: "done" } },
    );
    const ran = await runKeel(["-p", "go", ...common], env, { extraEnv: extraEnv(), timeoutMs: 60_000 });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe("done\n");
    const [parent, child, after] = llm.requests.slice(before).map((r) => r.body);
    const system = JSON.stringify(parent.messages[0]);
    expect(system).toContain("- changelog: Write the changelog entry. (.claude/skills/changelog/SKILL.md)");
    const task = parent.tools.find((t: { function: { name: string } }) => t.function.name === "task");
    expect(task.function.description).toContain("- scout: Finds files.");
    expect(child.messages[0].content).toMatch(/^You are the scout\./);
    expect(child.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["read", "grep", "find"]);
    expect(JSON.stringify(after.messages.at(-1))).toContain("SCOUT REPORT");
  });
});
