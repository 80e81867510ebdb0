/**
 * Under a permission mode the distribution locks, a question offers no "Always allow" (the allow rule it would
 * save is locked too, so it would be ignored) and goes to the distribution's own UI only; a refusal names the
 * agent's command and home and only the ways its lock leaves.
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

async function question(locked: boolean): Promise<UiRequest & { kind: "select"; refusal: string }> {
  const asked: UiRequest[] = [];
  const runtime = {
    app: { command: "team", version: "1.0.0", locked: locked ? ["permissions.mode"] : [] },
    keelHome: "/home/u/.team",
    ask: async (request: UiRequest) => void asked.push(request),
  } as unknown as Runtime;
  const answer = await askUser(runtime, "bash", "touch a", decision, false, locked);
  return Object.assign(asked[0] as UiRequest & { kind: "select" }, { refusal: answer.allow ? "" : answer.reason });
}

describe("a question under a locked permission mode", () => {
  it("offers no Always allow and is for the distribution's UI only", async () => {
    const locked = await question(true);
    expect(locked.options).toEqual(["Allow once", "Allow for this session (bash(touch *))", "Deny"]);
    expect(locked.distributionOnly).toBe(true);
  });

  it("says how to allow it in the agent's own terms: no flag or setting the lock refuses", async () => {
    const { refusal } = await question(true);
    expect(refusal).toContain("run team where a person can answer, and approve it");
    expect(refusal).not.toMatch(/--yes|--permission-mode|permissions\.allow|keel/);
    const open = await question(false);
    expect(open.refusal).toContain("run team with --yes");
    expect(open.refusal).toContain("/home/u/.team/settings.json");
    expect(open.refusal).toContain("run team with --permission-mode full");
    expect(open.refusal).not.toContain("keel");
  });

  it("offers Always allow to anyone's UI when the mode is not locked", async () => {
    const open = await question(false);
    expect(open.options).toContain("Always allow bash(touch *)");
    expect(open.distributionOnly).toBeUndefined();
  });
});
