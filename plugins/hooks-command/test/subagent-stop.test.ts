/**
 * Claude Code's SubagentStop: a subagent's run (the `task` tool's) ending runs the SubagentStop hooks, not the
 * Stop hooks, which run for the session's own run only.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { routedModel, task } from "../../subagents/test/support.ts";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { plugins, script, withKit } from "./support.ts";

it("runs SubagentStop when a subagent's run ends, and Stop only for the session's own", async () => {
  const log = join(tempDir("keel-subagent-stop-"), "log");
  const hook = (name: string) => ({ type: "command", command: script(`#!/bin/sh\necho ${name} >> ${log}\n`) });
  const settings = {
    provider: "routed",
    model: "m",
    hooks: {
      Stop: [{ hooks: [hook("Stop")] }],
      SubagentStop: [{ hooks: [hook("SubagentStop")] }],
    },
  };
  await withKit(
    {
      plugins: [...plugins, resolve("plugins/subagents")],
      settings,
      inline: [
        routedModel({
          parent: [{ toolCalls: [task("look around")] }, { text: "done" }],
          child: () => ({ text: "seen" }),
        }),
      ],
    },
    async (kit) => {
      await kit.run("delegate");
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["SubagentStop", "Stop"]);
    },
  );
});
