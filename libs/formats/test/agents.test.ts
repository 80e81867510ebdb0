/**
 * Subagent definitions as Claude Code users write them: tools in Claude Code's names with patterns and MCP
 * tools, model aliases, permission modes, maxTurns, subfolders, extra display fields, and fields keel reads
 * but does not act on.
 */
import { describe, expect, it } from "vitest";
import { readAgents } from "../src/agents.ts";
import { Notes, noteText } from "../src/notes.ts";
import { writeTree } from "./write.ts";

describe("reading an agents folder", () => {
  it("maps Claude Code's tool names and keeps patterns, MCP tools and the fields keel honours", async () => {
    const dir = writeTree({
      "search.md":
        "---\nname: code-search\ndescription: Finds files.\ntools: Read, Grep, Glob, LS, Bash(git *), " +
        "mcp__github__search\nmodel: sonnet\ncolor: purple\nmaxTurns: 8\npermissionMode: plan\n---\nYou search.\n",
    });
    const notes = new Notes();
    const [agent] = await readAgents(dir, notes);
    expect(agent).toMatchObject({
      name: "code-search",
      description: "Finds files.",
      model: "sonnet",
      maxTurns: 8,
      permissionMode: "plan",
      systemPrompt: "You search.",
    });
    expect(agent!.tools!.map((t) => [t.keel, t.pattern])).toEqual([
      ["read", undefined],
      ["grep", undefined],
      ["find", undefined],
      ["ls", undefined],
      ["bash", "git *"],
      ["mcp__github__search", undefined],
    ]);
    expect(notes.list).toEqual([]);
  });

  it("reads agents in subfolders under their own names, and every tool when tools is left out", async () => {
    const dir = writeTree({ "git/git-expert.md": "---\ndescription: Git.\nmodel: inherit\n---\nGit help.\n" });
    const [agent] = await readAgents(dir, new Notes());
    expect(agent).toMatchObject({ name: "git-expert", permissionMode: "default" });
    expect(agent!.tools).toBeUndefined();
    expect(agent!.model).toBeUndefined();
  });

  it("says which fields it does not honour, once per file", async () => {
    const dir = writeTree({
      "big.md":
        "---\nname: big\ndescription: Big.\neffort: xhigh\ninitialPrompt: /go\npermissionMode: bypassPermissions\n" +
        "---\nx\n",
    });
    const notes = new Notes();
    expect(await readAgents(dir, notes)).toHaveLength(1);
    expect(notes.list.map(noteText)).toEqual([
      expect.stringMatching(/big\.md: keel does not honour `effort` .*; `initialPrompt`; permissionMode "bypass/),
    ]);
  });

  it("refuses an agent without a description", async () => {
    const notes = new Notes();
    expect(await readAgents(writeTree({ "a.md": "---\nname: a\n---\n" }), notes)).toEqual([]);
    expect(notes.list[0]).toMatchObject({ refused: true, reason: expect.stringContaining("no description") });
  });
});
