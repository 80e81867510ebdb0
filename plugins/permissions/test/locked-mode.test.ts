/**
 * Under a permission mode the distribution locks, a question offers no "Always allow" (the allow rule it would
 * save is locked too, so it would be ignored) and goes to the distribution's own UI only.
 */
import { describe, expect, it } from "vitest";
import type { Runtime, UiRequest } from "@keel/extensions-api";
import { askUser, type AskDecision } from "../src/ask.ts";

const decision: AskDecision = {
  decision: "ask",
  by: "mode",
  reason: "bash touch a: the mode asks",
  irreversible: false,
  protected: false,
  suggestions: ["bash(touch *)"],
};

async function question(locked: boolean): Promise<UiRequest & { kind: "select" }> {
  const asked: UiRequest[] = [];
  const runtime = { ask: async (request: UiRequest) => void asked.push(request) } as unknown as Runtime;
  await askUser(runtime, "bash", "touch a", decision, false, locked);
  return asked[0] as UiRequest & { kind: "select" };
}

describe("a question under a locked permission mode", () => {
  it("offers no Always allow and is for the distribution's UI only", async () => {
    const locked = await question(true);
    expect(locked.options).toEqual(["Allow once", "Allow for this session (bash(touch *))", "Deny"]);
    expect(locked.distributionOnly).toBe(true);
  });

  it("offers Always allow to anyone's UI when the mode is not locked", async () => {
    const open = await question(false);
    expect(open.options).toContain("Always allow bash(touch *)");
    expect(open.distributionOnly).toBeUndefined();
  });
});
