/**
 * Rules a plugin grants for one run (`permission_grant`, a slash command's `allowed-tools`) and a tool call
 * run outside the model's replies (`runtime.runTool`, a command's `!` line): both go through the same policy.
 * A grant allows what no UI could approve, for that run only, and never past a deny rule.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createTestKit } from "@keel/testing";
import { definePlugin, textOf, type PluginAPI } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";

const plugins = [resolve("plugins/ops-local"), resolve("plugins/tool-bash"), resolve("plugins/permissions")];
const touch = (file: string) => ({ toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] });

/** A plugin that hands its API out, to publish grants as a command would. */
function granter() {
  let api: PluginAPI | undefined;
  const plugin = definePlugin({ activate: (a) => void (api = a) });
  return {
    inline: { name: "granter", plugin },
    grant: (rules: string[]) => api!.publish("permission_grant", { rules, origin: "/ship" }),
  };
}

describe("a run's granted rules", () => {
  it("allow a call nobody could approve, for that run only", async () => {
    const g = granter();
    const script = [touch("a.txt"), { text: "one" }, touch("b.txt"), { text: "two" }];
    const kit = await createTestKit({ plugins, inline: [g.inline], script });
    try {
      g.grant(["Bash(touch:*)"]);
      await kit.run("first");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(true);
      await kit.run("second");
      expect(existsSync(join(kit.cwd, "b.txt"))).toBe(false);
      expect(kit.eventsOf("permission_decision").map((d) => [d.decision, d.by, d.rule])).toEqual([
        ["allow", "rule", "Bash(touch:*) (allowed by /ship)"],
        ["deny", "no_ui", undefined],
      ]);
    } finally {
      await kit.dispose();
    }
  });

  it("never outrank a deny rule", async () => {
    const g = granter();
    const settings = { permissions: { deny: ["bash(touch *)"] } };
    const kit = await createTestKit({ plugins, inline: [g.inline], settings, script: [touch("a.txt"), { text: "x" }] });
    try {
      g.grant(["Bash(touch:*)"]);
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
      expect(kit.eventsOf("permission_decision")[0]).toMatchObject({ decision: "deny", rule: "bash(touch *)" });
    } finally {
      await kit.dispose();
    }
  });
});

describe("runtime.runTool", () => {
  it("runs a call the policy allows, refuses one it does not, and keeps both out of the history", async () => {
    const kit = await createTestKit({ plugins, settings: { permissions: { deny: ["bash(rm *)"] } } });
    try {
      const ok = await kit.runtime.runTool({ name: "bash", input: { command: "echo hi" } });
      expect(ok.isError).toBe(false);
      expect(textOf(ok)).toContain("hi");
      const refused = await kit.runtime.runTool({ name: "bash", input: { command: "rm -f x" } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("Permission denied");
      const unknown = await kit.runtime.runTool({ name: "nope", input: {} });
      expect(textOf(unknown)).toContain('Unknown tool "nope"');
      expect(kit.runtime.messages).toEqual([]);
      expect(kit.eventsOf("tool_execution_end").map((e) => e.toolName)).toEqual(["bash", "bash", "nope"]);
    } finally {
      await kit.dispose();
    }
  });
});
