/**
 * Expanding a command's text: arguments by name and position, appended when the text takes none, `!` commands
 * run by the caller in order with their output in place, and `@file` contents added after the text.
 */
import { describe, expect, it } from "vitest";
import { expandPrompt, fileReferences, substituteArguments } from "../src/expand.ts";

const steps = (files: Record<string, string> = {}) => {
  const ran: string[] = [];
  return {
    ran,
    shell: async (command: string) => (ran.push(command), `<${command}>`),
    file: async (path: string) => files[path],
  };
};

describe("expanding a prompt file", () => {
  it("fills $ARGUMENTS and $1…$9 in one pass", () => {
    expect(substituteArguments("All: $ARGUMENTS; first: $1; second: $2; none: $3", '"a b" $1')).toBe(
      'All: "a b" $1; first: a b; second: $1; none: ',
    );
  });

  it("appends the arguments to a text that takes none, as Claude Code does", () => {
    expect(substituteArguments("Review the code.", "src/a.ts", true)).toBe("Review the code.\n\nARGUMENTS: src/a.ts");
    expect(substituteArguments("Review the code.", "", true)).toBe("Review the code.");
  });

  it("runs each !`command` in order and puts its output in place, fenced ```! blocks too", async () => {
    const s = steps();
    const text = await expandPrompt("Status: !`git status`\n```!\ngit log -1\n```\nDiff: !`git diff $1`", "HEAD", s);
    expect(s.ran).toEqual(["git status", "git log -1", "git diff HEAD"]);
    expect(text).toBe("Status: <git status>\n<git log -1>\nDiff: <git diff HEAD>");
  });

  it("adds the contents of each @file after the text, and leaves other @words alone", async () => {
    const s = steps({ "src/a.ts": "export const a = 1;\n" });
    const text = await expandPrompt("Look at @src/a.ts, and ask @alice.", "", s);
    expect(text).toBe("Look at @src/a.ts, and ask @alice.\n\nContents of src/a.ts:\nexport const a = 1;");
  });

  it("fills the variables it is given, before the ! commands run, and leaves others as written", async () => {
    const s = steps();
    const text = await expandPrompt("Run !`${CLAUDE_PLUGIN_ROOT}/x.sh` with ${HOME_DIR}", "", s, {
      variables: { CLAUDE_PLUGIN_ROOT: "/plug" },
    });
    expect(s.ran).toEqual(["/plug/x.sh"]);
    expect(text).toBe("Run </plug/x.sh> with ${HOME_DIR}");
  });

  it("does not take @ in code or in an e-mail address for a file", () => {
    expect(fileReferences("mail me@example.com or `@src/x.ts`\n```\n@lib/y.ts\n```\nsee @docs/z.md.")).toEqual([
      "docs/z.md",
    ]);
  });
});
