/**
 * The default prompt names the agent that runs: a distribution's command, not keel.
 */
import { describe, expect, it } from "vitest";
import { buildSystemPrompt } from "../src/system-prompt.ts";

describe("the default prompt's identity", () => {
  it("is the distribution's command", () => {
    const context = { facts: "", instructions: [], skills: [] } as never;
    expect(buildSystemPrompt("", context, [], "/w", [], "reviewer")).toMatch(/^You are reviewer, a coding agent/);
    expect(buildSystemPrompt("", context, [], "/w")).toMatch(/^You are keel, a coding agent/);
  });
});
