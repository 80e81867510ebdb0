/** Gemini CLI's TOML commands read into Claude Code's command shape, placeholders and all. */
import { expect, it } from "vitest";
import { readCommands } from "../src/commands.ts";
import { Notes } from "../src/notes.ts";
import { geminiPrompt } from "../src/toml-commands.ts";
import { writeTree } from "./write.ts";

it("writes {{args}}, !{…} (braces balanced) and @{…} in Claude Code's syntax", () => {
  expect(geminiPrompt("Review {{args}}: !{git diff} and @{docs/a.md}")).toBe(
    "Review $ARGUMENTS: !`git diff` and @docs/a.md",
  );
  expect(geminiPrompt("!{jq '{a: 1}' x.json}")).toBe("!`jq '{a: 1}' x.json`");
  expect(geminiPrompt("unclosed !{echo")).toBe("unclosed !{echo");
});

it("reads a commands folder's TOML files beside Markdown ones, namespaced by subfolder and plugin", async () => {
  const dir = writeTree({
    "git/commit.toml": 'description = "Commit"\nprompt = "Commit {{args}}"\n',
    "plain.md": "---\ndescription: Plain\n---\nText\n",
    "broken.toml": "prompt = ",
    "empty.toml": 'description = "no prompt"\n',
  });
  const notes = new Notes();
  const commands = await readCommands(dir, notes, "gem");
  expect(commands.map((c) => [c.name, c.description, c.body])).toEqual([
    ["gem:git:commit", "Commit", "Commit $ARGUMENTS"],
    ["gem:plain", "Plain", "Text"],
  ]);
  expect(notes.list.map((n) => [n.file.slice(dir.length + 1), n.refused])).toEqual([
    ["broken.toml", true],
    ["empty.toml", true],
  ]);
});
