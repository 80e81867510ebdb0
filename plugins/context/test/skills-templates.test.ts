/**
 * Skills and prompt templates: a skill's name, description and path reach the model (its body does not until
 * asked for), `/skill:<name>` sends the body; a template's `/name` fills in `$1`, `$@` and `$ARGUMENTS`.
 */
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import type { TestKit } from "@keel/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expandTemplate } from "../src/templates.ts";
import { contextKit, tree } from "./support.ts";

const OPENAI = join(import.meta.dirname, "../../provider-openai");
let llm: MockLlm;
let kit: TestKit | undefined;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());
afterEach(async () => kit?.dispose());

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

function openaiSettings() {
  return {
    provider: "openai",
    model: "gpt-4.1-mini",
    providers: { openai: { baseUrl: `${llm.url}/v1`, apiKey: "sk-test" } },
  };
}

describe("skills", () => {
  it("enter the request with only their name, description and path; the first of a name wins", async () => {
    const root = tree({
      "home/skills/release/SKILL.md": skill("release", "Cut a release (tag, changelog, publish).", "USER RELEASE BODY"),
      "home/skills/pdf/SKILL.md": skill("pdf", "Fill PDF forms.", "PDF BODY"),
      "work/.keel/skills/release/SKILL.md": skill("release", "The project's release steps.", "PROJECT RELEASE BODY"),
      "work/.claude/skills/review/SKILL.md": skill("review", "Review a diff for bugs.", "REVIEW BODY"),
      "work/.agents/skills/notes/README.md": "not a skill: no SKILL.md",
    });
    const made = await contextKit({
      cwd: join(root, "work"),
      keelHome: join(root, "home"),
      plugins: [OPENAI],
      settings: openaiSettings(),
    });
    kit = made.kit;
    const before = llm.requests.length;
    llm.push({ reply: { text: "ok" } });
    await kit.run("hi");
    const system = JSON.stringify(llm.requests[before]!.body.messages[0]);
    expect(system).toContain("- release: The project's release steps. (.keel/skills/release/SKILL.md)");
    expect(system).toContain("- review: Review a diff for bugs. (.claude/skills/review/SKILL.md)");
    expect(system).toContain(`- pdf: Fill PDF forms. (${join(root, "home/skills/pdf/SKILL.md")})`);
    expect(system).not.toMatch(/BODY|Cut a release/);
    expect(kit.problems()).toEqual([
      expect.stringContaining(
        `skill "release" in ${join(root, "home/skills/release/SKILL.md")} is hidden by the one in`,
      ),
    ]);
  });

  it("that cannot be one is skipped, naming the file and why", async () => {
    const root = tree({
      "work/.keel/skills/Bad Name/SKILL.md": skill("Bad Name", "x", "body"),
      "work/.keel/skills/nodesc/SKILL.md": "---\nname: nodesc\n---\n",
    });
    const made = await contextKit({ cwd: join(root, "work"), script: [{ text: "ok" }] });
    kit = made.kit;
    await kit.run("hi");
    expect(made.prompt()).not.toContain("Skills:");
    expect(kit.problems()).toEqual([
      expect.stringMatching(/Bad Name\/SKILL\.md: its name "Bad Name" must be letters, digits/),
      expect.stringMatching(/nodesc\/SKILL\.md: it has no description/),
    ]);
  });

  it("/skill:<name> sends the skill's body and the task", async () => {
    const root = tree({
      "work/.keel/skills/release/SKILL.md": skill("release", "Release steps.", "1. Tag.\n2. Publish."),
    });
    const made = await contextKit({ cwd: join(root, "work"), plugins: [OPENAI], settings: openaiSettings() });
    kit = made.kit;
    const before = llm.requests.length;
    llm.push({ reply: { text: "released" } });
    expect(await kit.runtime.runCommand("/skill:release version 2.1")).toBe(true);
    const user = JSON.stringify(llm.requests[before]!.body.messages.at(-1));
    expect(user).toContain('Use the skill \\"release\\"');
    expect(user).toContain("1. Tag.\\n2. Publish.\\n\\nTask: version 2.1");
    expect(user).not.toContain("description:");
  });
});

describe("prompt templates", () => {
  it("become /commands with their description, filling $1, $@ and $ARGUMENTS", async () => {
    const root = tree({
      "home/prompts/fix.md":
        "---\ndescription: Fix an issue by number\n---\nFix issue $1 in $2. All: [$@]. Raw: [$ARGUMENTS].\n",
      "work/.keel/prompts/explain.md": "Explain $1 simply.\n",
    });
    const made = await contextKit({
      cwd: join(root, "work"),
      keelHome: join(root, "home"),
      script: [{ text: "done" }],
    });
    kit = made.kit;
    const commands = kit.runtime.listCommands().filter((c) => c.plugin === "@keel/plugin-context");
    expect(commands.map((c) => [c.name, c.description])).toEqual([
      ["/explain", "Explain $1 simply."],
      ["/fix", "Fix an issue by number"],
    ]);
    expect(await kit.runtime.runCommand('/fix 42 "the parser"  now')).toBe(true);
    const prompt = kit.runtime.messages[0]!;
    expect(prompt.content).toBe('Fix issue 42 in the parser. All: [42 the parser now]. Raw: [42 "the parser"  now].');
    expect(kit.problems()).toEqual([]);
  });

  it("leave a missing argument empty and an argument's own $1 as typed", () => {
    expect(expandTemplate("a=$1 b=$2 c=$3.", "'$2' x")).toBe("a=$2 b=x c=.");
  });
});
