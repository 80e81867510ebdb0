/**
 * Skills as real plugins ship them: list-form allowed-tools, model invocation switched off, a lower-case
 * skill.md, reference files beside SKILL.md, skills grouped in a folder and nested in another skill, a name
 * left to the folder and a description left to the text.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Notes, noteText } from "../src/notes.ts";
import { readSkills, skillText } from "../src/skills.ts";
import { writeTree } from "./write.ts";

describe("reading a skills folder", () => {
  it("reads Claude Code's fields and leaves reference files alone", async () => {
    const dir = writeTree({
      "access/SKILL.md":
        "---\nname: access\ndescription: Manage who may pair.\nuser-invocable: true\nallowed-tools:\n" +
        "  - Read\n  - Bash(ls *)\n---\nSteps.\n",
      "access/references/policy.md": "# Policy\n",
      "pulse/SKILL.md":
        '---\nname: pulse\ndescription: "Report."\ndisable-model-invocation: true\n' +
        'argument-hint: "[window]"\nmodel: haiku\n---\nRun $ARGUMENTS\n',
    });
    const notes = new Notes();
    const [access, pulse] = await readSkills(dir, notes);
    expect(access).toMatchObject({
      name: "access",
      description: "Manage who may pair.",
      path: join(dir, "access/SKILL.md"),
      modelInvocable: true,
      userInvocable: true,
    });
    expect(access!.allowedTools.map((t) => t.written)).toEqual(["Read", "Bash(ls *)"]);
    expect(pulse).toMatchObject({ modelInvocable: false, argumentHint: "[window]", model: "haiku" });
    expect(notes.list).toEqual([]);
  });

  it("finds a lower-case skill.md, skills in a grouping folder and a skill nested in a skill", async () => {
    const dir = writeTree({
      "lower/skill.md": "---\ndescription: Lower-case file name.\n---\n",
      "group/pdf/SKILL.md": "---\nname: pdf\ndescription: PDFs.\n---\n",
      "outer/SKILL.md": "---\nname: outer\ndescription: Outer.\n---\n",
      "outer/inner/SKILL.md": "---\nname: inner\ndescription: Inner.\n---\n",
    });
    const skills = await readSkills(dir, new Notes());
    expect(skills.map((s) => s.name)).toEqual(["pdf", "lower", "outer", "inner"]);
  });

  it("takes the folder's name and the first paragraph when the front matter leaves them out", async () => {
    const dir = writeTree({ "tidy/SKILL.md": "# Tidy\n\nKeeps imports sorted\nand files short.\n\nMore.\n" });
    const [tidy] = await readSkills(dir, new Notes());
    expect(tidy).toMatchObject({ name: "tidy", description: "Keeps imports sorted and files short." });
    expect(await skillText(tidy!.path)).toBe("# Tidy\n\nKeeps imports sorted\nand files short.\n\nMore.");
  });

  it("refuses a skill with no description or an unusable name, naming the file", async () => {
    const dir = writeTree({
      "empty/SKILL.md": "---\nname: empty\n---\n",
      "Bad Name/SKILL.md": "---\ndescription: x\n---\n",
      "fork/SKILL.md": "---\ndescription: Forks.\ncontext: fork\n---\n",
    });
    const notes = new Notes();
    const skills = await readSkills(dir, notes);
    expect(skills.map((s) => s.name)).toEqual(["fork"]);
    expect(notes.list.map(noteText)).toEqual([
      expect.stringMatching(/Bad Name\/SKILL\.md: its name "Bad Name" must be .*; the file was skipped$/),
      expect.stringMatching(/empty\/SKILL\.md: it has no description.*; the file was skipped$/),
      expect.stringMatching(/fork\/SKILL\.md: keel does not honour `context: fork`/),
    ]);
  });
});
