/**
 * A plugin's `plan` event reaches the editor as ACP `plan` updates: the ACP SDK's client side drives the real
 * `keel acp` with the todo example loaded, and the model's todo calls show as the plan, whole each time.
 */
import { fileURLToPath } from "node:url";
import { methods } from "@agentclientprotocol/sdk";
import { expect, it } from "vitest";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { asEditor, initialize } from "./editor.ts";

const todo = fileURLToPath(new URL("../../../examples/todo", import.meta.url));

it("shows the todo list the model keeps as the editor's plan", { timeout: 60_000 }, async () => {
  const add = (text: string) => ({ name: "todo", arguments: { action: "add", text } });
  const env = keelEnv({
    script: [
      { toolCalls: [add("write the test"), add("ship it")] },
      { toolCalls: [{ name: "todo", arguments: { action: "done", id: 1 } }] },
      { text: "one step left" },
    ],
  });
  const editor = await asEditor(
    env,
    async (agent) => {
      await initialize(agent);
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
      const done = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "plan the work" }],
      });
      expect(done.stopReason).toBe("end_turn");
    },
    { args: ["--plugin", todo] },
  );
  const plans = editor.updates.flatMap((u) => (u.update.sessionUpdate === "plan" ? [u.update.entries] : []));
  expect(plans.map((entries) => entries.map((e) => `${e.content}: ${e.status}`))).toEqual([
    ["write the test: pending"],
    ["write the test: pending", "ship it: pending"],
    ["write the test: completed", "ship it: pending"],
  ]);
  expect(plans.flat().every((e) => e.priority === "medium")).toBe(true);
  expect(editor.stderr()).toBe("");
});
