/**
 * Project instructions: AGENTS.md, CLAUDE.md and GEMINI.md (each with its `@` imports where its tool reads them)
 * from the user's folder and from the repository root down to the working folder, widest first; capped per
 * file and in all, with notices.
 */
import { join } from "node:path";
import type { TestKit } from "@keel/testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextKit, tree } from "./support.ts";

let kit: TestKit | undefined;
afterEach(async () => kit?.dispose());

describe("project instructions", () => {
  it(
    "come from the user's folder, then the repository root down to the working folder, a CLAUDE.md beside " +
      "an AGENTS.md too",
    async () => {
      const root = tree({
        "AGENTS.md": "OUTSIDE the repository",
        "home/AGENTS.md": "USER rules",
        "repo/.git/HEAD": "ref: refs/heads/feature/x\n",
        "repo/CLAUDE.md": "ROOT claude rules",
        "repo/pkg/AGENTS.md": "PKG agents rules",
        "repo/pkg/CLAUDE.md": "PKG claude rules",
        "repo/pkg/app/AGENTS.md": "APP rules",
      });
      const made = await contextKit({
        cwd: join(root, "repo/pkg/app"),
        keelHome: join(root, "home"),
        script: [{ text: "ok" }],
      });
      kit = made.kit;
      await kit.run("hi");
      const prompt = made.prompt();
      const order = ["USER rules", "ROOT claude rules", "PKG agents rules", "PKG claude rules", "APP rules"].map((t) =>
        prompt.indexOf(t),
      );
      expect(order.every((at) => at >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(prompt).not.toContain("OUTSIDE");
      expect(prompt).toContain(`Instructions from ${join(root, "repo/CLAUDE.md")}:\nROOT claude rules`);
      expect(prompt).toContain("Git branch: feature/x.");
      expect(prompt).toContain(`Folder: ${join(root, "repo/pkg/app")}.`);
    },
  );

  it("brings in CLAUDE.md's @ imports after it, reads GEMINI.md, and reads no text twice", async () => {
    const root = tree({
      "work/AGENTS.md": "SHARED agent rules",
      "work/CLAUDE.md": "See @AGENTS.md and @docs/testing.md. Not `@docs/never.md`.",
      "work/docs/testing.md": "TESTING rules",
      "work/docs/never.md": "NEVER",
      "work/GEMINI.md": "SHARED agent rules",
      "work/.claude/CLAUDE.md": "DOT-CLAUDE rules",
    });
    const made = await contextKit({ cwd: join(root, "work"), script: [{ text: "ok" }] });
    kit = made.kit;
    await kit.run("hi");
    const prompt = made.prompt();
    expect(prompt.match(/SHARED agent rules/g)).toHaveLength(1);
    expect(prompt).toContain(
      `Instructions from ${join(root, "work/docs/testing.md")} (imported by ${join(root, "work/CLAUDE.md")}):\n` +
        "TESTING rules",
    );
    expect(prompt).toContain("DOT-CLAUDE rules");
    expect(prompt).not.toContain("NEVER");
  });

  it("outside a repository, reads only the working folder's", async () => {
    const root = tree({ "AGENTS.md": "PARENT rules", "work/AGENTS.md": "WORK rules" });
    const made = await contextKit({ cwd: join(root, "work"), script: [{ text: "ok" }] });
    kit = made.kit;
    await kit.run("hi");
    expect(made.prompt()).toContain("WORK rules");
    expect(made.prompt()).not.toContain("PARENT rules");
    expect(made.prompt()).not.toContain("Git branch");
  });

  it("cuts a file over the per-file cap and says so to the model and the user", async () => {
    const root = tree({ "work/AGENTS.md": `START ${"x".repeat(3000)} END` });
    const made = await contextKit({
      cwd: join(root, "work"),
      settings: { context: { maxFileBytes: 1024 } },
      script: [{ text: "ok" }],
    });
    kit = made.kit;
    await kit.run("hi");
    const prompt = made.prompt();
    expect(prompt).toContain("START");
    expect(prompt).not.toContain("END");
    expect(prompt).toContain("[Cut at 1.0 KB of 2.9 KB; read the file for the rest.]");
    expect(kit.problems()).toEqual([
      expect.stringMatching(/AGENTS\.md \(2\.9 KB\) was cut at one file's 1\.0 KB cap \(context\.maxFileBytes\)/),
    ]);
  });

  it("stops at the total cap: the file that crosses it is cut, narrower ones are left out with a notice", async () => {
    const root = tree({
      "repo/.git/": "",
      "repo/AGENTS.md": `ROOT ${"r".repeat(1500)}`,
      "repo/a/AGENTS.md": `A-START ${"a".repeat(1500)} A-END`,
      "repo/a/b/AGENTS.md": "B rules",
    });
    const made = await contextKit({
      cwd: join(root, "repo/a/b"),
      settings: { context: { maxFileBytes: 2048, maxTotalBytes: 2048 } },
      script: [{ text: "ok" }],
    });
    kit = made.kit;
    await kit.run("hi");
    const prompt = made.prompt();
    expect(prompt).toContain("A-START");
    expect(prompt).not.toContain("A-END");
    expect(prompt).not.toContain("B rules");
    expect(prompt).toContain(`Instructions from ${join(root, "repo/a/b/AGENTS.md")}:\n[Left out:`);
    expect(kit.problems().join("\n")).toMatch(/a\/AGENTS\.md \(1\.5 KB\) was cut at the 2\.0 KB cap on all of them/);
    expect(kit.problems().join("\n")).toMatch(/b\/AGENTS\.md was left out of the system prompt/);
  });

  it("adds the session's facts to a systemPrompt setting instead of its own default words", async () => {
    const root = tree({ "work/AGENTS.md": "WORK rules" });
    const made = await contextKit({
      cwd: join(root, "work"),
      settings: { systemPrompt: "You are the release bot." },
      script: [{ text: "ok" }],
    });
    kit = made.kit;
    await kit.run("hi");
    expect(made.prompt()).toMatch(/^You are the release bot\.\n\nDate: \d{4}-\d\d-\d\d\. Folder: /);
    expect(made.prompt()).toContain("WORK rules");
    expect(made.prompt()).not.toContain("You are keel");
  });
});
