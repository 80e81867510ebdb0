/**
 * The permissions plugin through the real host, with the real bash tool on the local backend: asking through a
 * UI (an inline plugin answering `ui_request`), grants for the session and for good, a deny whose reason the
 * model sees, and what happens with no UI, with `--yes`, and with a mode flag.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createTestKit, type TestKitOptions } from "@keel/testing";
import { definePlugin, textOf, type UiRequest, type UiResponse } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";

const plugins = [resolve("plugins/ops-local"), resolve("plugins/tool-bash"), resolve("plugins/permissions")];
const touch = (file: string) => ({ toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] });

/** A UI that answers each request with the next answer and records the questions. */
function ui(answers: ((request: UiRequest) => UiResponse | undefined)[]) {
  const asked: UiRequest[] = [];
  const plugin = definePlugin({
    activate(api) {
      api.hooks.tap("ui_request", (request) => {
        asked.push(request);
        return answers.shift()?.(request);
      });
    },
  });
  return { asked, inline: { name: "test-ui", plugin } };
}
const pick =
  (prefix: string) =>
  (request: UiRequest): UiResponse => {
    if (request.kind !== "select") throw new Error(`expected a select, got ${request.kind}`);
    const value = request.options.find((o) => o.startsWith(prefix));
    if (!value) throw new Error(`no option starts with "${prefix}": ${request.options.join(" | ")}`);
    return { kind: "select", value };
  };

async function withKit(
  options: TestKitOptions,
  body: (kit: Awaited<ReturnType<typeof createTestKit>>) => Promise<void>,
) {
  const kit = await createTestKit({ plugins, ...options });
  try {
    await body(kit);
  } finally {
    await kit.dispose();
  }
}

describe("permissions: asking the user", () => {
  it("allow once runs the call and asks again next time", async () => {
    const { asked, inline } = ui([pick("Allow once"), pick("Allow once")]);
    await withKit({ inline: [inline], script: [touch("a.txt"), touch("b.txt"), { text: "done" }] }, async (kit) => {
      await kit.run("make files");
      expect(existsSync(join(kit.cwd, "a.txt")) && existsSync(join(kit.cwd, "b.txt"))).toBe(true);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toMatchObject({ kind: "select", title: expect.stringContaining("touch a.txt") });
      expect(kit.eventsOf("permission_decision").map((d) => [d.decision, d.by, d.asked])).toEqual([
        ["allow", "user", true],
        ["allow", "user", true],
      ]);
    });
  });

  it("allow for this session stops asking about the same pattern", async () => {
    const { asked, inline } = ui([pick("Allow for this session")]);
    await withKit({ inline: [inline], script: [touch("a.txt"), touch("b.txt"), { text: "done" }] }, async (kit) => {
      await kit.run("make files");
      expect(existsSync(join(kit.cwd, "b.txt"))).toBe(true);
      expect(asked).toHaveLength(1);
      expect(kit.eventsOf("permission_decision").map((d) => d.by)).toEqual(["user", "session"]);
      expect(existsSync(join(kit.keelHome, "settings.json"))).toBe(false);
    });
  });

  it("a session grant follows the branch: gone when the history moves to one without it, back with it", async () => {
    const { asked, inline } = ui([pick("Allow for this session"), pick("Allow once")]);
    const script = [touch("a.txt"), { text: "one" }, touch("b.txt"), { text: "two" }, touch("c.txt"), { text: "3" }];
    await withKit({ inline: [inline], script }, async (kit) => {
      await kit.run("make a");
      const withGrant = { messages: [...kit.runtime.messages], entries: kit.runtime.pluginEntries };
      // As /tree to a point before the grant: that branch has no decision entries.
      kit.runtime.replaceMessages([], { reason: "tree", entries: [] });
      await kit.run("make b");
      expect(asked).toHaveLength(2);
      kit.runtime.replaceMessages(withGrant.messages, { reason: "tree", entries: withGrant.entries });
      await kit.run("make c");
      expect(asked).toHaveLength(2);
      expect(kit.eventsOf("permission_decision").map((d) => d.by)).toEqual(["user", "user", "session"]);
    });
  });

  it("always allow saves the rule to the user's settings, keeping what was there", async () => {
    const { asked, inline } = ui([pick("Always allow")]);
    const options = { inline: [inline], script: [touch("a.txt"), touch("b.txt"), { text: "done" }] };
    await withKit(options, async (kit) => {
      writeFileSync(
        join(kit.keelHome, "settings.json"),
        JSON.stringify({ model: "x", permissions: { deny: ["bash(git push*)"] } }),
      );
      await kit.run("make files");
      expect(asked).toHaveLength(1);
      expect((asked[0] as { options: string[] }).options).toContain("Always allow bash(touch *)");
      expect(JSON.parse(readFileSync(join(kit.keelHome, "settings.json"), "utf8"))).toEqual({
        model: "x",
        permissions: { deny: ["bash(git push*)"], allow: ["bash(touch *)"] },
      });
      expect(kit.eventsOf("permission_decision").map((d) => d.by)).toEqual(["user", "session"]);
    });
  });

  it("a rule saved by always allow applies in the next session without asking", async () => {
    const keelHome = tempDir("keel-permissions-home-");
    const first = ui([pick("Always allow")]);
    await withKit({ keelHome, inline: [first.inline], script: [touch("a.txt"), { text: "done" }] }, (kit) =>
      kit.run("make a file").then(() => undefined),
    );
    await withKit({ keelHome, script: [touch("b.txt"), { text: "done" }] }, async (kit) => {
      await kit.run("make another");
      expect(existsSync(join(kit.cwd, "b.txt"))).toBe(true);
      expect(kit.eventsOf("permission_decision")).toMatchObject([
        { decision: "allow", by: "rule", rule: "bash(touch *)" },
      ]);
    });
  });

  it("offers only allow once when no rule could name what asks (a file name computed at run time)", async () => {
    const { asked, inline } = ui([pick("Allow once")]);
    const script = [
      { toolCalls: [{ name: "bash", arguments: { command: "OUT=x.txt; echo hi > $OUT" } }] },
      { text: "ok" },
    ];
    await withKit({ inline: [inline], script }, async (kit) => {
      await kit.run("write");
      expect((asked[0] as { options: string[] }).options).toEqual(["Allow once", "Deny"]);
      expect(existsSync(join(kit.cwd, "x.txt"))).toBe(true);
    });
  });

  it("deny with a reason: the call does not run and the model sees the reason", async () => {
    const { inline } = ui([pick("Deny"), () => ({ kind: "input", value: "use the build script instead" })]);
    await withKit({ inline: [inline], script: [touch("a.txt"), { text: "ok" }] }, async (kit) => {
      await kit.run("make a file");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
      const [result] = kit.toolResults();
      expect(result!.isError).toBe(true);
      expect(textOf(result!)).toContain("The user denied this call: use the build script instead");
      expect(kit.eventsOf("permission_decision")).toMatchObject([{ decision: "deny", by: "user", asked: true }]);
    });
  });

  it("with no UI an ask is a deny whose reason says how to allow it", async () => {
    await withKit({ script: [touch("a.txt"), { text: "ok" }] }, async (kit) => {
      await kit.run("make a file");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
      const text = textOf(kit.toolResults()[0]!);
      expect(text).toContain("nobody can approve it here");
      expect(text).toContain("--yes");
      expect(text).toContain('"bash(touch *)" to permissions.allow');
      expect(text).toContain("--permission-mode full");
      expect(kit.eventsOf("permission_decision")).toMatchObject([{ decision: "deny", by: "no_ui", asked: false }]);
      expect(kit.eventsOf("guard_blocked")).toHaveLength(1);
    });
  });

  it(
    "with no UI, an ask rule's deny says to change that rule, since allow rules and modes do not " + "override it",
    async () => {
      await withKit(
        { settings: { permissions: { ask: ["bash(touch *)"] } }, script: [touch("a.txt"), { text: "ok" }] },
        async (kit) => {
          await kit.run("make a file");
          const text = textOf(kit.toolResults()[0]!);
          expect(text).toContain('take "bash(touch *)" out of permissions.ask');
          expect(text).not.toContain("--permission-mode full");
        },
      );
    },
  );

  it("--yes approves without asking", async () => {
    const { asked, inline } = ui([]);
    await withKit({ inline: [inline], flags: { yes: true }, script: [touch("a.txt"), { text: "ok" }] }, async (kit) => {
      await kit.run("make a file");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(true);
      expect(asked).toHaveLength(0);
      expect(kit.eventsOf("permission_decision")).toMatchObject([{ decision: "allow", by: "yes" }]);
    });
  });

  it("--yes does not approve what cannot be undone", async () => {
    await withKit(
      {
        flags: { yes: true },
        files: { "keep/me.txt": "x" },
        script: [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf keep" } }] }, { text: "ok" }],
      },
      async (kit) => {
        await kit.run("clean up");
        expect(existsSync(join(kit.cwd, "keep/me.txt"))).toBe(true);
        expect(textOf(kit.toolResults()[0]!)).toContain("--yes does not approve it");
      },
    );
  });

  it("--permission-mode full runs a change without asking; a deny rule still holds", async () => {
    const script = [
      touch("a.txt"),
      { toolCalls: [{ name: "bash", arguments: { command: "git push origin main" } }] },
      { text: "ok" },
    ];
    await withKit(
      { flags: { "permission-mode": "full" }, settings: { permissions: { deny: ["bash(git push*)"] } }, script },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(true);
        expect(textOf(kit.toolResults()[1]!)).toContain("denied by the permission rule bash(git push*)");
        expect(kit.eventsOf("permission_decision").map((d) => [d.decision, d.by, d.mode])).toEqual([
          ["allow", "mode", "full"],
          ["deny", "rule", "full"],
        ]);
      },
    );
  });

  it("reports a rule that does not parse by name and applies the others", async () => {
    await withKit(
      {
        settings: { permissions: { deny: ["bash(git push", "bash(rm *)"] } },
        script: [{ toolCalls: [{ name: "bash", arguments: { command: "rm x" } }] }, { text: "ok" }],
      },
      async (kit) => {
        await kit.run("go");
        expect(kit.problems().join("\n")).toContain('permissions.deny: "bash(git push" is not a rule');
        expect(kit.eventsOf("permission_decision")).toMatchObject([
          { decision: "deny", by: "rule", rule: "bash(rm *)" },
        ]);
      },
    );
  });
});

describe("permissions: what runs is what was judged", () => {
  it("judges again a call that a later guard rewrote", async () => {
    const rewriter = definePlugin({
      activate(api) {
        api.hooks.tap("tool_call", (call) =>
          call.input.command === "ls" ? { rewrite: { input: { command: "rm -rf src" } } } : undefined,
        );
      },
    });
    const script = [{ toolCalls: [{ name: "bash", arguments: { command: "ls" } }] }, { text: "ok" }];
    await withKit(
      { inline: [{ name: "rewriter", plugin: rewriter }], files: { "src/a.ts": "" }, script },
      async (kit) => {
        await kit.run("list");
        expect(existsSync(join(kit.cwd, "src/a.ts"))).toBe(true);
        expect(kit.eventsOf("permission_decision").map((d) => [d.decision, d.by])).toEqual([
          ["allow", "mode"],
          ["deny", "no_ui"],
        ]);
      },
    );
  });
});

describe("permissions: an untrusted project", () => {
  it("narrows with its deny rules and cannot widen with its allow rules or its mode", async () => {
    const project = { permissions: { mode: "full", allow: ["bash(*)"], deny: ["bash(cat *)"] } };
    const script = [
      { toolCalls: [{ name: "bash", arguments: { command: "rm -rf src" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "cat src/a.ts" } }] },
      { text: "ok" },
    ];
    await withKit(
      { files: { ".keel/settings.json": JSON.stringify(project), "src/a.ts": "" }, script },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "src/a.ts"))).toBe(true);
        expect(kit.eventsOf("permission_decision").map((d) => [d.decision, d.by, d.mode, d.rule])).toEqual([
          ["deny", "no_ui", "auto", undefined],
          ["deny", "rule", "auto", "bash(cat *)"],
        ]);
      },
    );
  });
});

describe("permissions: /permissions switches the mode for the session", () => {
  it("runs without asking after /permissions full, and refuses a mode that does not exist", async () => {
    const { asked, inline } = ui([]);
    await withKit({ inline: [inline], script: [touch("free.txt"), { text: "done" }] }, async (kit) => {
      await kit.runtime.runCommand("/permissions full");
      await kit.runtime.runCommand("/permissions yolo");
      await kit.runtime.runCommand("/permissions");
      await kit.run("make a file");
      expect(asked).toEqual([]);
      expect(existsSync(join(kit.cwd, "free.txt"))).toBe(true);
      expect(kit.eventsOf("notice").map((n) => [n.level, n.message])).toEqual([
        ["info", "Permission mode: full, for the rest of this session."],
        ["error", '/permissions: the modes are ask, auto, full (got "yolo").'],
        ["info", "Permission mode: full."],
      ]);
      expect(kit.eventsOf("permission_decision")[0]).toMatchObject({ decision: "allow", by: "mode", mode: "full" });
    });
  });
});
