/**
 * `api.publish`: a plugin may publish the events the catalog leaves to plugins, and only those.
 */
import { createTestKit } from "@keel/testing";
import { definePlugin, type EventName } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";

describe("api.publish", () => {
  it("delivers an event plugins may publish and refuses the kernel's own", async () => {
    let refusal = "";
    const decision = {
      toolCallId: "c1",
      toolName: "bash",
      decision: "deny",
      by: "rule",
      rule: "bash",
      mode: "auto",
      reason: "no",
      asked: false,
    } as const;
    const plugin = definePlugin({
      activate(api) {
        api.publish("permission_decision", decision);
        try {
          api.publish("tool_execution_end" as EventName as "permission_decision", {} as never);
        } catch (error) {
          refusal = (error as Error).message;
        }
      },
    });
    const kit = await createTestKit({ inline: [{ name: "publisher", plugin }] });
    try {
      expect(kit.eventsOf("permission_decision")).toEqual([decision]);
      expect(kit.eventNames()).not.toContain("tool_execution_end");
      expect(refusal).toContain('"tool_execution_end" is not an event plugins may publish');
    } finally {
      await kit.dispose();
    }
  });
});
