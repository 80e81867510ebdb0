/**
 * Claude Code's slash commands and skills through the context plugin with the real bash and read tools and
 * the permission policy: `.claude/commands` only from a trusted folder, subfolders as namespaces, `$ARGUMENTS`
 * and `$1`, `!` lines run through the policy with their output inlined (a denied one says so), `@file`
 * contents, `allowed-tools` granted for the command's run, skills' Claude Code fields.
 */
import { join, resolve } from "node:path";
import { definePlugin, textOf } from "@keel/extensions-api";
import { playTurn } from "@keel/extensions-api/scripted";
import type { TestKit } from "@keel/testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextKit, tree } from "./support.ts";

const tools = ["ops-local", "tool-bash", "tools-fs", "permissions"].map((p) => resolve("plugins", p));
let kit: TestKit | undefined;
afterEach(async () => kit?.dispose());

const commit =
  "---\ndescription: Commit with the house style\nargument-hint: [message]\nallowed-tools: Bash(touch:*)\n---\n" +
  "Status: !`echo CLEAN`\nDenied: !`rm -rf build`\nCommit as: $ARGUMENTS (first word $1)\nSee @NOTES.md\n";

async function start(files: Record<string, string>, trust: boolean, script: unknown[] = [{ text: "ok" }]) {
  const root = tree(files);
  const made = await contextKit({
    cwd: join(root, "work"),
    keelHome: join(root, "home"),
    plugins: tools,
    trust,
    script: script as never,
    settings: { permissions: { deny: ["bash(rm *)"] } },
  });
  kit = made.kit;
  return made;
}

describe("Claude Code slash commands", () => {
  it("are listed with their namespace and hint, and expand arguments, ! lines and @files", async () => {
    await start({ "work/.claude/commands/git/commit.md": commit, "work/NOTES.md": "Use imperative mood.\n" }, true);
    const listed = kit!.runtime.listCommands().find((c) => c.name === "/git:commit");
    expect(listed?.description).toBe("Commit with the house style [message]");
    expect(await kit!.runtime.runCommand("/git:commit fix parser")).toBe(true);
    const prompt = textOf(kit!.runtime.messages[0]!);
    expect(prompt).toContain("Status: CLEAN");
    expect(prompt).toMatch(/Denied: Blocked by .*Permission denied/);
    expect(prompt).toContain("Commit as: fix parser (first word fix)");
    expect(prompt).toContain("Contents of NOTES.md:\n");
    expect(prompt).toContain("Use imperative mood.");
  });

  it("grant their allowed-tools for the run they start, and only for it", async () => {
    const files = { "work/.claude/commands/mk.md": "---\nallowed-tools: Bash(touch:*)\n---\nMake the file.\n" };
    const touch = (f: string) => ({ toolCalls: [{ name: "bash", arguments: { command: `touch ${f}` } }] });
    await start(files, true, [touch("a"), { text: "made" }, touch("b"), { text: "no" }]);
    await kit!.runtime.runCommand("/mk");
    await kit!.run("again");
    expect(kit!.eventsOf("permission_decision").map((d) => [d.decision, d.by])).toEqual([
      ["allow", "rule"],
      ["deny", "no_ui"],
    ]);
  });

  it("are read from the trusted working folder only, not from a parent the trust did not cover", async () => {
    const root = tree({
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/.claude/commands/parent.md": "From the parent.\n",
      "repo/app/.claude/commands/own.md": "Its own.\n",
    });
    const made = await contextKit({ cwd: join(root, "repo/app"), plugins: tools, trust: true });
    kit = made.kit;
    const names = kit.runtime.listCommands().map((c) => c.name);
    expect(names).toContain("/own");
    expect(names).not.toContain("/parent");
  });

  it("are not read from an untrusted folder", async () => {
    await start({ "work/.claude/commands/git/commit.md": commit }, false);
    expect(kit!.runtime.listCommands().map((c) => c.name)).not.toContain("/git:commit");
    expect(await kit!.runtime.runCommand("/git:commit x")).toBe(false);
  });

  it("append arguments the text does not place, as Claude Code does", async () => {
    await start({ "work/.claude/commands/review.md": "Review the change.\n" }, true);
    await kit!.runtime.runCommand("/review src/a.ts");
    expect(textOf(kit!.runtime.messages[0]!)).toBe("Review the change.\n\nARGUMENTS: src/a.ts");
  });
});

describe("a command's model", () => {
  it("runs the command on the model it names (an alias through modelAliases), then the session's again", async () => {
    const asked: string[] = [];
    const other = definePlugin({
      activate(api) {
        api.registerProvider({
          id: "other",
          models: () => [{ id: "fast-1", provider: "other", contextWindow: 100_000, maxOutput: 4096 }],
          async *stream(request, options) {
            asked.push(textOf(request.messages.at(-1)!));
            yield* playTurn({ text: "from other" }, options.signal, { provider: "other", model: "fast-1" });
          },
        });
      },
    });
    const root = tree({ "work/.claude/commands/quick.md": "---\nmodel: haiku\n---\nBe quick.\n" });
    const made = await contextKit({
      cwd: join(root, "work"),
      trust: true,
      inline: [{ name: "other-model", plugin: other }],
      settings: { modelAliases: { haiku: "other/fast-1" } },
      script: [{ text: "from the session's model" }],
    });
    kit = made.kit;
    await kit.runtime.runCommand("/quick");
    expect(asked).toEqual(["Be quick."]);
    expect(kit.runtime.model).toMatchObject({ provider: "scripted", id: "script" });
    const result = await kit.run("next");
    expect(result.finalText).toBe("from the session's model");
  });
});

describe("skills with Claude Code's fields", () => {
  it("grant their allowed-tools from the user's folder, never from a project's", async () => {
    const skillText = "---\nname: mk\ndescription: Makes a file.\nallowed-tools: Bash(touch:*)\n---\nMake it.\n";
    const touch = { toolCalls: [{ name: "bash", arguments: { command: "touch made" } }] };
    await start({ "home/skills/mk/SKILL.md": skillText }, false, [touch, { text: "done" }]);
    await kit!.runtime.runCommand("/skill:mk");
    expect(kit!.eventsOf("permission_decision").map((d) => d.decision)).toEqual(["allow"]);
    await kit!.dispose();
    kit = undefined;
    await start({ "work/.claude/skills/mk/SKILL.md": skillText }, true, [touch, { text: "done" }]);
    await kit!.runtime.runCommand("/skill:mk");
    expect(kit!.eventsOf("permission_decision").map((d) => [d.decision, d.by])).toEqual([["deny", "no_ui"]]);
    expect(kit!.problems()).toEqual([expect.stringContaining("its allowed-tools are not granted")]);
  });

  it("hide a skill from the model or from the commands, and fill a skill's arguments and ! lines", async () => {
    const files = {
      "work/.claude/skills/deploy/SKILL.md":
        "---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\n" +
        "Deploy $ARGUMENTS now: !`echo READY`\n",
      "work/.claude/skills/style/SKILL.md":
        "---\nname: style\ndescription: House style.\nuser-invocable: false\n---\nx\n",
    };
    const made = await start(files, false);
    const names = kit!.runtime.listCommands().map((c) => c.name);
    expect(names).toContain("/skill:deploy");
    expect(names).not.toContain("/skill:style");
    await kit!.runtime.runCommand("/skill:deploy staging");
    expect(made.prompt()).toContain("- style: House style.");
    expect(made.prompt()).not.toContain("- deploy:");
    expect(textOf(kit!.runtime.messages[0]!)).toContain("Deploy staging now: READY");
  });
});
