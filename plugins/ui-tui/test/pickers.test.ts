/**
 * The terminal UI's pickers in a real terminal: /model over every installed provider's models, /resume over
 * the folder's sessions, /tree over the session's entries, and /new.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { closeAll, sessionEntries, start } from "./screen.ts";

let llm: MockLlm | undefined;
afterEach(async () => {
  closeAll();
  await llm?.close();
  llm = undefined;
});

describe("the terminal UI's pickers", () => {
  it("switches the model with the /model picker; the next prompt goes to the model picked", async () => {
    llm = await startMockLlm([{ reply: { text: "From the mock model." } }]);
    const env = keelEnv({ script: [{ text: "From the script." }] });
    const t = start(env, [], { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" });
    await t.waitFor("scripted/script · thinking");
    t.type("/model");
    t.press("enter");
    await t.waitFor("type to filter");
    expect(t.screen()).toContain("scripted/script  Scripted model  (current)");
    t.type("openai/gpt-4.1-mini");
    await t.waitFor(/→ openai\/gpt-4\.1-mini\s*$/m);
    t.press("enter");
    await t.waitFor("Model: openai/gpt-4.1-mini.");
    await t.waitFor("openai/gpt-4.1-mini · thinking");
    t.type("hello");
    t.press("enter");
    await t.waitFor("From the mock model.");
    expect(llm.requests.map((r) => r.body.model)).toEqual(["gpt-4.1-mini"]);
  });

  it("resumes an earlier session of the folder with the /resume picker", async () => {
    const env = keelEnv({ script: [{ text: "Noted the blue door." }] });
    const first = start(env);
    await first.waitFor("context 0%");
    first.type("remember the blue door");
    first.press("enter");
    await first.waitFor("Noted the blue door.");
    first.type("/exit");
    first.press("enter");
    expect(await first.exited).toBe(0);

    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([{ text: "It was blue." }]));
    const t = start(env);
    await t.waitFor("context 0%");
    expect(t.all()).not.toContain("blue door");
    t.type("/resume");
    t.press("enter");
    await t.waitFor("Resume a session");
    expect(t.screen()).toMatch(/→ .*remember the blue door/);
    t.press("enter");
    await t.waitFor("Resumed session");
    const screen = t.screen();
    expect(screen).toContain("› remember the blue door");
    expect(screen).toContain("Noted the blue door.");
    t.type("which colour?");
    t.press("enter");
    await t.waitFor("It was blue.");
  });

  it("moves back in the session with the /tree picker; the next message continues from there", async () => {
    const env = keelEnv({ script: [{ text: "First answer." }, { text: "Second answer." }, { text: "Third answer." }] });
    const t = start(env);
    await t.waitFor("context 0%");
    t.type("first question");
    t.press("enter");
    await t.waitFor("First answer.");
    t.type("second question");
    t.press("enter");
    await t.waitFor("Second answer.");
    t.type("/tree");
    t.press("enter");
    await t.waitFor("Continue from");
    expect(t.screen()).toMatch(/→ user: first question/);
    t.press("enter");
    await t.waitFor("Moved to");
    expect(t.screen()).not.toContain("second question");
    t.type("another try");
    t.press("enter");
    await t.waitFor("Third answer.");
    const entries = sessionEntries(env.home);
    const another = entries.find((e) => e.message?.content === "another try");
    const first = entries.find((e) => e.message?.content === "first question");
    expect(another.parentId).toBe(first.id);
  });

  it("starts a new session with /new: an empty conversation under a new id", async () => {
    const env = keelEnv({ script: [{ text: "Old answer." }, { text: "New answer." }] });
    const t = start(env);
    const first = /session ([0-9a-f]{8})/.exec(await t.waitFor("context 0%"))![1];
    t.type("old question");
    t.press("enter");
    await t.waitFor("Old answer.");
    t.type("/new");
    t.press("enter");
    const screen = await t.waitFor("New session");
    const second = /session ([0-9a-f]{8})/.exec(t.screen())![1];
    expect(second).not.toBe(first);
    expect(screen).toContain(`New session ${second}.`);
    expect(t.screen()).not.toContain("Old answer.");
  });
});
