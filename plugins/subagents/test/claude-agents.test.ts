/**
 * Claude Code subagent definitions in `.claude/agents` (subfolders too), run by the task tool: Claude Code's
 * tool names mapped to keel's, a `Bash(git *)` pattern holding the agent to those commands, `permissionMode:
 * plan` to read-only calls, `maxTurns` ending the run, a model alias, tools the session lacks told once, and
 * nothing read from an untrusted folder.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type ToolResultMessage } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterEach, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { routedModel, task } from "./support.ts";

const plugins = join(import.meta.dirname, "../..");
const used = ["subagents", "tools-fs", "ops-local", "tool-bash"].map((p) => join(plugins, p));
let kit: TestKit | undefined;
afterEach(async () => kit?.dispose());

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

async function withAgent(file: string, text: string, child: Parameters<typeof routedModel>[0]["child"], trust = true) {
  const cwd = tempDir("keel-claude-agents-");
  mkdirSync(join(cwd, ".claude/agents/git"), { recursive: true });
  writeFileSync(join(cwd, ".claude/agents", file), text);
  kit = await createTestKit({
    cwd,
    trust,
    plugins: used,
    settings: { provider: "routed", model: "m", ops: "local", permissions: { mode: "full" } },
    inline: [routedModel({ parent: [{ toolCalls: [task("work", "git-expert")] }, { text: "done" }], child })],
  });
  await kit.run("go");
  return kit.runtime.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
}

it("maps Claude Code's tool names and holds a Bash(git *) agent to git commands", async () => {
  const seen: string[][] = [];
  const results: string[] = [];
  const agent =
    "---\nname: git-expert\ndescription: Git help.\ntools: Read, Grep, Bash(git *), WebSearch\nmodel: inherit\n" +
    "color: orange\n---\nYou are a subagent for git.\n";
  await withAgent("git/git-expert.md", agent, (_job, step, request) => {
    seen.push(request.tools.map((t) => t.name));
    if (step > 0) results.push(textOf(request.messages.at(-1)!));
    return [bash("git --version"), bash("touch x"), bash("git status; touch y"), { text: "ok" }][step]!;
  });
  expect(seen[0]).toEqual(["read", "grep", "bash"]);
  expect(results[0]).toMatch(/git version/);
  expect(results[1]).toContain('agent "git-expert" (');
  expect(results[1]).toContain("may use bash only as bash(git *), one plain command at a time");
  expect(results[2]).toContain("may use bash only as");
  expect(kit!.problems()).toEqual([expect.stringMatching(/agent "git-expert" .*runs without WebSearch/)]);
});

it("holds a plan-mode agent to read-only calls, and stops it after maxTurns", async () => {
  const answers: string[] = [];
  const agent =
    "---\nname: git-expert\ndescription: Plans.\npermissionMode: plan\nmaxTurns: 2\n---\n" +
    "You are a subagent that plans.\n";
  const [result] = await withAgent("planner.md", agent, (_job, step, request) => {
    if (step > 0) answers.push(textOf(request.messages.at(-1)!));
    return [bash("touch plan.txt"), { toolCalls: [{ name: "ls", arguments: {} }] }, { text: "never" }][step]!;
  });
  expect(answers[0]).toContain("plans only (permissionMode: plan): bash changes things");
  expect(result!.isError).toBe(true);
  expect(textOf(result!)).toContain("max_steps");
});

it("reads no .claude/agents from an untrusted folder", async () => {
  const agent = "---\nname: git-expert\ndescription: Git help.\n---\nYou are a subagent.\n";
  const [result] = await withAgent("git-expert.md", agent, () => ({ text: "x" }), false);
  expect(textOf(result!)).toContain('No agent is named "git-expert"');
});
