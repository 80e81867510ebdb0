/**
 * The MCP conformance suite's client scenarios without OAuth (conformance-auth.test.ts has those), through the
 * real binary (conformance.ts). The elicitation scenario needs someone to answer: the fixture drives keel in RPC
 * mode as a user who agrees and keeps every default.
 */
import { describe, expect, it } from "vitest";
import { scenario } from "./conformance.ts";

describe("the MCP conformance suite's client scenarios", () => {
  for (const name of ["initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults"]) {
    it(`passes ${name}`, { timeout: 60_000 }, async () => {
      const { code, output } = await scenario(name);
      expect(output).toContain("OVERALL: PASSED");
      expect(output).toMatch(/0 failed/);
      expect(code).toBe(0);
    });
  }
});
