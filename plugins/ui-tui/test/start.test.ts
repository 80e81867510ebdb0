/**
 * What the terminal UI tells at start, in a real terminal: a provider whose server cannot be reached (a closed
 * port on 127.0.0.1) is shown with what to check before any message, and the first screen does not wait for
 * the check.
 */
import { afterEach, describe, expect, it } from "vitest";
import { closedPort } from "../../../test/support/closed-port.ts";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { TerminalSession } from "../../../test/support/terminal.ts";

const open: TerminalSession[] = [];
afterEach(() => open.splice(0).forEach((t) => t.kill()));

describe("the terminal UI at start", () => {
  it("says the provider's server cannot be reached, and what to check, before any message", async () => {
    const port = await closedPort();
    const env = keelEnv();
    const term = new TerminalSession(["--provider", "openai", "--model", "gpt-4.1-mini"], env, {
      extraEnv: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    open.push(term);
    const screen = await term.waitFor((s) => s.includes("Cannot reach") && s.includes("context 0%"));
    expect(screen.replace(/\n/g, " ")).toMatch(
      new RegExp(`Cannot reach OpenAI at http://127\\.0\\.0\\.1:${port}: the connection was refused`),
    );
    expect(screen.replace(/\s+/g, " ")).toContain("providers.openai.baseUrl or $OPENAI_BASE_URL");
    expect(screen).not.toContain("›");
  });
});
