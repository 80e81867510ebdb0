/**
 * What the terminal UI asks and tells at start, in a real terminal: whether to trust the project folder, as
 * its own dialog before the session starts (remembered when answered, asked again when dismissed); and a
 * provider whose server cannot be reached (a closed port on 127.0.0.1), shown with what to check before any
 * message; and a missing key, with how to set it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closedPort } from "../../../test/support/closed-port.ts";
import { keelEnv, type KeelEnv } from "../../../test/support/keel-cli.ts";
import { closeAll, READY, start, startWith } from "./screen.ts";

afterEach(closeAll);
const OPENAI = ["--provider", "openai", "--model", "gpt-4.1-mini"];

function projectSettings(env: KeelEnv): void {
  mkdirSync(join(env.cwd, ".keel"), { recursive: true });
  writeFileSync(
    join(env.cwd, ".keel", "settings.json"),
    JSON.stringify({ systemPrompt: "You are the project agent." }),
  );
}

describe("the terminal UI at start", () => {
  it("asks whether to trust the project folder in its own dialog; the answer is remembered", async () => {
    const env = keelEnv({ script: [{ text: "answered" }] });
    projectSettings(env);
    const first = start(env);
    await first.waitFor("Trust ");
    const dialog = first.screen();
    expect(dialog).toContain(".keel/settings.json can run commands");
    expect(dialog).toMatch(/→ Yes/);
    expect(dialog).not.toContain(READY);
    first.press("enter");
    await first.waitFor(READY);
    expect(first.all()).not.toContain("This folder is not trusted");
    expect(readFileSync(join(env.home, "trust.json"), "utf8")).toContain('"trusted": true');
    first.type("/exit");
    first.press("enter");
    expect(await first.exited).toBe(0);

    const second = start(env);
    await second.waitFor(READY);
    expect(second.all()).not.toContain("Trust ");
  });

  it("leaves the folder untrusted when the dialog is dismissed, and asks again next time", async () => {
    const env = keelEnv({ script: [] });
    projectSettings(env);
    const first = start(env);
    await first.waitFor("Trust ");
    first.press("escape");
    await first.waitFor(READY);
    expect(first.all()).toContain("This folder is not trusted");
    expect(existsSync(join(env.home, "trust.json"))).toBe(false);
    first.press("ctrl+d");
    expect(await first.exited).toBe(0);
    const second = start(env);
    await second.waitFor("Trust ");
  });

  it("says the provider's server cannot be reached, and what to check, before any message", async () => {
    const port = await closedPort();
    const env = keelEnv();
    const term = startWith(OPENAI, env, { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    const screen = await term.waitFor((s) => s.includes("Cannot reach") && s.includes(READY));
    expect(screen.replace(/\n/g, " ")).toMatch(
      new RegExp(`Cannot reach OpenAI at http://127\\.0\\.0\\.1:${port}: the connection was refused`),
    );
    expect(screen.replace(/\s+/g, " ")).toContain("providers.openai.baseUrl or $OPENAI_BASE_URL");
    expect(screen).not.toContain("›");
  });

  it("says that the provider's key is missing and how to set it, before any message", async () => {
    const term = startWith(OPENAI, keelEnv(), { OPENAI_API_KEY: "" });
    const screen = await term.waitFor((s) => s.includes("OPENAI_API_KEY") && s.includes("· thinking"));
    expect(screen).toMatch(/No API key for provider openai .*: set OPENAI_API_KEY/);
    expect(screen).not.toContain("›");
  });
});
