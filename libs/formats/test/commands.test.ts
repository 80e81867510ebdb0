/**
 * Claude Code's slash-command files, in the shapes real repositories use: front matter with description,
 * argument-hint, allowed-tools as one line or a list, subfolders namespacing the name, files without front
 * matter, and files that cannot be commands.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCommands } from "../src/commands.ts";
import { Notes, noteText } from "../src/notes.ts";
import { writeTree } from "./write.ts";

describe("reading a commands folder", () => {
  it("names a subfolder's file by its folder (git/commit.md → git:commit) and reads every field", async () => {
    const dir = writeTree({
      "git/commit.md":
        "---\ndescription: Commit with the house style\nargument-hint: [message]\n" +
        "allowed-tools: Bash(git add:*), Bash(git commit:*), Read\nmodel: haiku\ncategory: workflow\n---\n" +
        "Commit: $ARGUMENTS\n",
      "review.md": "Review the change in $1.\n",
    });
    const notes = new Notes();
    const commands = await readCommands(dir, notes);
    expect(commands.map((c) => c.name)).toEqual(["git:commit", "review"]);
    const [commit, review] = commands;
    expect(commit).toMatchObject({
      description: "Commit with the house style",
      argumentHint: "[message]",
      model: "haiku",
      body: "Commit: $ARGUMENTS",
      path: join(dir, "git/commit.md"),
    });
    expect(commit!.allowedTools.map((t) => [t.keel, t.pattern])).toEqual([
      ["bash", "git add:*"],
      ["bash", "git commit:*"],
      ["read", undefined],
    ]);
    // No front matter: the first line describes it.
    expect(review).toMatchObject({ description: "Review the change in $1.", allowedTools: [] });
    expect(notes.list).toEqual([]);
  });

  it("reads allowed-tools written as a YAML list, and a description with an unquoted colon", async () => {
    const dir = writeTree({
      "plan.md": '---\ndescription: Plan: then build\nallowed-tools:\n  [\n    "Read",\n    "Task",\n  ]\n---\nGo\n',
    });
    const [plan] = await readCommands(dir, new Notes());
    expect(plan!.description).toBe("Plan: then build");
    expect(plan!.allowedTools.map((t) => t.keel)).toEqual(["read", "task"]);
  });

  it("prefixes a plugin's commands with its name", async () => {
    const dir = writeTree({ "deploy.md": "Deploy\n", "db/migrate.md": "Migrate\n" });
    const names = (await readCommands(dir, new Notes(), "ops")).map((c) => c.name);
    expect(names).toEqual(["ops:db:migrate", "ops:deploy"]);
  });

  it("refuses a file whose name cannot be a command, and names the Claude Code fields it does not honour", async () => {
    const dir = writeTree({ "my command.md": "x\n", "fork.md": "---\ncontext: fork\nagent: Explore\n---\nx\n" });
    const notes = new Notes();
    const commands = await readCommands(dir, notes);
    expect(commands.map((c) => c.name)).toEqual(["fork"]);
    expect(notes.list.map(noteText)).toEqual([
      expect.stringMatching(/fork\.md: keel does not honour `context: fork` .*; `agent`/),
      expect.stringMatching(/my command\.md: a command's file and folder names .*; the file was skipped$/),
    ]);
  });

  it("reads nothing from a folder that is not there", async () => {
    expect(await readCommands("/nonexistent/commands", new Notes())).toEqual([]);
  });
});
