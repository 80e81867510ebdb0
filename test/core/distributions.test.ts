/**
 * Distributions through the test kit: a manifest's plugins, defaults, tool subset, prompt and locks, as
 * `createTestKit({ distribution })` loads them.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, STAGE_OBSERVE } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";

const reviewer = fileURLToPath(new URL("../../distributions/readonly-reviewer/distribution.json", import.meta.url));
const team = fileURLToPath(new URL("../../distributions/team/distribution.json", import.meta.url));

/** Records the system prompt and the tools offered with it, after every other plugin shaped the prompt. */
function promptProbe(seen: { prompt?: string; tools?: string[] }) {
  return {
    name: "prompt-probe",
    plugin: definePlugin({
      activate(api) {
        api.hooks.tap("system_prompt", { stage: STAGE_OBSERVE }, (prompt, info) => {
          Object.assign(seen, { prompt, tools: info.toolNames });
          return prompt;
        });
      },
    }),
  };
}

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe("a distribution loaded by the test kit", () => {
  it(
    "offers only the readonly-reviewer's read tools, with its review prompt, whatever a lower " + "layer says",
    async () => {
      const seen: { prompt?: string; tools?: string[] } = {};
      kit = await createTestKit({
        distribution: reviewer,
        inline: [promptProbe(seen)],
        settings: { tools: { enabled: ["read", "write", "bash"] }, systemPrompt: "Change whatever you like." },
        files: { "a.js": "const a = 1;\n" },
        script: [{ toolCalls: [{ name: "write", arguments: { path: "b.js", content: "x" } }] }, { text: "done" }],
      });
      await kit.run("review a.js");
      // read_result is enabled too, but offered only once a large result was stored.
      expect(seen.tools?.sort()).toEqual(["find", "grep", "ls", "read"]);
      expect(seen.prompt).toMatch(/^You are reviewer, a code reviewer/);
      expect(seen.prompt).not.toContain("Change whatever you like");
      expect(kit.toolResults()[0]?.isError).toBe(true);
      expect(JSON.stringify(kit.toolResults()[0]?.content)).toContain('Unknown tool \\"write\\"');
      for (const key of ["tools.enabled", "systemPrompt"])
        expect(kit.warnings.join("\n")).toMatch(
          new RegExp(`Setting "${key}" is locked by the reviewer distribution; the value in --settings #2 was ignored`),
        );
    },
  );

  it("runs the team's required policy, which refuses a push whatever the permission mode", async () => {
    const seen: { prompt?: string; tools?: string[] } = {};
    kit = await createTestKit({
      distribution: team,
      inline: [promptProbe(seen)],
      settings: { permissions: { mode: "full" } },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "git push origin main" } }] }, { text: "ok" }],
    });
    await kit.run("ship it");
    expect(kit.plugins().find((p) => p.name === "keel-team-policy")?.state).toBe("active");
    expect(kit.eventsOf("guard_blocked")[0]?.reason).toMatch(/^The team's policy refuses this command/);
    expect(seen.prompt).toMatch(/Follow the team's policy: never push/);
    expect(kit.warnings.some((w) => w.startsWith('Setting "permissions.mode" is locked by the team'))).toBe(true);
  });

  it("refuses to start the team agent with its policy plugin disabled", async () => {
    await expect(
      createTestKit({ distribution: team, settings: { plugins: { disabled: ["keel-team-policy"] } } }),
    ).rejects.toThrow(/keel-team-policy/);
  });
});
