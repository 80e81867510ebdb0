/**
 * What the line chat tells at start, through the real binary: on a terminal a banner (program, model, folder,
 * session, how to get help); on a terminal and on a pipe alike, a provider whose server cannot be reached (a
 * closed port on 127.0.0.1) or whose key is missing, with the fix, before any message is sent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { closedPort } from "../../../test/support/closed-port.ts";
import { keelEnv, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";
import { TerminalSession } from "../../../test/support/terminal.ts";

const OPENAI = ["--provider", "openai", "--model", "gpt-4.1-mini"];
const open: TerminalSession[] = [];
afterEach(() => open.splice(0).forEach((t) => t.kill()));

describe("the line chat at start", () => {
  it("says on a pipe, with no message sent, that the server cannot be reached and what to check", async () => {
    const port = await closedPort();
    const run = await runKeel(OPENAI, keelEnv(), {
      input: "",
      extraEnv: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Cannot reach OpenAI at http://127.0.0.1:${port}: the connection was refused (nothing listens there); ` +
        "check that the server runs and the address is right (settings providers.openai.baseUrl or $OPENAI_BASE_URL).",
    );
  });

  it("says that the key is missing and how to set it, before the first message", async () => {
    const run = await runKeel(OPENAI, keelEnv(), { input: "", extraEnv: { OPENAI_API_KEY: "" } });
    expect(run.stderr).toMatch(/No API key for provider openai .*: set OPENAI_API_KEY/);
  });

  it("shows a banner on a terminal, then the prompt", async () => {
    const env = keelEnv({ script: [] });
    const term = new TerminalSession(["--mode", "interactive", ...SCRIPTED], env);
    open.push(term);
    const screen = await term.waitFor(/^\/help lists the commands; \/exit ends\.\n>/m);
    expect(screen).toMatch(/^keel \S+ · scripted\/script · .*work · session [0-9a-f]{8}$/m);
  });
});
