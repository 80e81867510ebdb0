/**
 * The terminal UI's pickers in a real terminal: /model over every installed provider's models, /resume over
 * the folder's sessions, /tree over the session's entries, and /new.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { closeAll, send, sessionEntries, start, started } from "./screen.ts";

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
    await send(t, "/model", "type to filter");
    expect(t.screen()).toContain("scripted/script  Scripted model  (current)");
    t.type("openai/gpt-4.1-mini");
    await t.waitFor(/→ openai\/gpt-4\.1-mini\s*$/m);
    t.press("enter");
    await t.waitFor("Model: openai/gpt-4.1-mini.");
    await t.waitFor("openai/gpt-4.1-mini · thinking");
    await send(t, "hello", "From the mock model.");
    expect(llm.requests.map((r) => r.body.model)).toEqual(["gpt-4.1-mini"]);
  });

  it("resumes an earlier session of the folder with the /resume picker", async () => {
    const env = keelEnv({ script: [{ text: "Noted the blue door." }] });
    const first = await started(env);
    await send(first, "remember the blue door", "Noted the blue door.");
    first.type("/exit");
    first.press("enter");
    expect(await first.exited).toBe(0);

    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([{ text: "It was blue." }]));
    const t = await started(env);
    expect(t.all()).not.toContain("blue door");
    await send(t, "/resume", "Resume a session");
    expect(t.screen()).toMatch(/→ .*remember the blue door/);
    t.press("enter");
    await t.waitFor("Resumed session");
    const screen = t.screen();
    expect(screen).toContain("› remember the blue door");
    expect(screen).toContain("Noted the blue door.");
    await send(t, "which colour?", "It was blue.");
  });

  it("moves back in the session with the /tree picker; the next message continues from there", async () => {
    const env = keelEnv({ script: [{ text: "First answer." }, { text: "Second answer." }, { text: "Third answer." }] });
    const t = await started(env);
    await send(t, "first question", "First answer.");
    await send(t, "second question", "Second answer.");
    await send(t, "/tree", "Continue from");
    expect(t.screen()).toMatch(/→ user: first question/);
    t.press("enter");
    await t.waitFor("Moved to");
    expect(t.screen()).not.toContain("second question");
    await send(t, "another try", "Third answer.");
    const entries = sessionEntries(env.home);
    const another = entries.find((e) => e.message?.content === "another try");
    const first = entries.find((e) => e.message?.content === "first question");
    expect(another.parentId).toBe(first.id);
  });

  it("starts a new session with /new: an empty conversation under a new id", async () => {
    const env = keelEnv({ script: [{ text: "Old answer." }, { text: "New answer." }] });
    const t = start(env);
    const first = /session ([0-9a-f]{8})/.exec(await t.waitFor("context 0%"))![1];
    await send(t, "old question", "Old answer.");
    const screen = await send(t, "/new", "New session");
    const second = /session ([0-9a-f]{8})/.exec(t.screen())![1];
    expect(second).not.toBe(first);
    expect(screen).toContain(`New session ${second}.`);
    expect(t.screen()).not.toContain("Old answer.");
  });
});
