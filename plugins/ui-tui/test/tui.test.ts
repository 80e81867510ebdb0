/**
 * The terminal UI as a person meets it: the real binary in a real terminal (a pseudo-terminal drawn by a
 * headless xterm.js), driven by keystrokes, checked by what the screen shows. The scripted model plays each
 * test's turns.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { closeAll, editorText, send, started } from "./screen.ts";

afterEach(closeAll);

describe("the terminal UI", () => {
  it("shows the header and footer, streams the answer and shows the tool call with its output", async () => {
    const env = keelEnv({
      script: [
        { text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "echo hello from bash" } }] },
        { text: "Bash said **hello**.", delayMs: 5, chunkSize: 3 },
      ],
    });
    const t = await started(env, ["--permission-mode", "full"]);
    expect(t.screen()).toMatch(/^keel \S+ scripted\/script · .*work · session [0-9a-f]{8}/);
    const screen = await send(t, "say hello", "Bash said hello.");
    expect(screen).toContain("› say hello");
    expect(screen).toMatch(/● \$ echo hello from bash\n {2}⎿ hello from bash/);
    // The answer comes after the tool call, and the editor is empty again.
    expect(screen.indexOf("Bash said hello.")).toBeGreaterThan(screen.indexOf("⎿ hello from bash"));
    expect(editorText(t.screen())).toBe("");
    t.type("/exit");
    t.press("enter");
    expect(await t.exited).toBe(0);
  });

  it("streams a command's output while it runs", async () => {
    const command = "echo first output; while [ ! -f go ]; do sleep 0.05; done; echo second output";
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "Both seen." }],
    });
    const t = await started(env, ["--permission-mode", "full"]);
    t.type("run it");
    t.press("enter");
    // The command is still waiting for the file, and its first line is already on the screen.
    await t.waitFor("⎿ first output");
    expect(t.all()).not.toMatch(/^ {4}second output/m);
    writeFileSync(join(env.cwd, "go"), "");
    await t.waitFor("Both seen.");
    expect(t.all()).toMatch(/⎿ first output\n {4}second output/);
  });

  it("steers the run with a message typed while it works; the model reads it at its next step", async () => {
    const env = keelEnv({
      script: [
        {
          text: "Reading the files now, this takes a moment.",
          delayMs: 60,
          chunkSize: 2,
          toolCalls: [{ name: "bash", arguments: { command: "echo step one" } }],
        },
        { text: "Noted: I will check the tests too." },
      ],
    });
    const t = await started(env, ["--permission-mode", "full"]);
    await send(t, "read the files", "Working…");
    await send(t, "also check the tests", "↳ steer: also check the tests");
    const screen = await t.waitFor("Noted: I will check the tests too.");
    const steer = screen.indexOf("› also check the tests");
    expect(steer).toBeGreaterThan(screen.indexOf("⎿ step one"));
    expect(steer).toBeLessThan(screen.indexOf("Noted: I will"));
    expect(t.screen()).not.toContain("↳ steer");
  });

  it("aborts with Esc and gives the queued messages back to the editor in the order typed", async () => {
    const env = keelEnv({ script: [{ text: "Thinking about it", hang: true }, { text: "Fresh start." }] });
    const t = await started(env);
    await send(t, "a long task", "Thinking about it");
    await send(t, "first note", "↳ steer: first note");
    t.type("second note");
    t.press("alt+enter");
    await t.waitFor("↳ follow-up: second note");
    t.type("third");
    t.press("escape");
    await t.waitFor("(aborted)");
    await t.waitFor((s) => editorText(s.split("\n").slice(-30).join("\n")) === "first note\nsecond note\nthird");
    expect(t.screen()).not.toContain("↳");
    // What came back is sent as one new prompt; none of it had reached the aborted run.
    t.press("enter");
    const screen = await t.waitFor("Fresh start.");
    expect(screen.match(/› first note/g)).toHaveLength(1);
    expect(screen).toMatch(/› first note\n {2}second note\n {2}third/);
  });

  it("sends a multi-line paste as one message, and recalls it from the history with Up", async () => {
    const env = keelEnv({ script: [{ text: "One message received." }] });
    const t = await started(env);
    t.paste("first line\nsecond line\nthird line");
    await t.waitFor((s) => editorText(s) === "first line\nsecond line\nthird line");
    t.press("enter");
    const screen = await t.waitFor("One message received.");
    expect(screen).toMatch(/› first line\n {2}second line\n {2}third line\n/);
    expect(screen.match(/›/g)).toHaveLength(1);
    t.press("up");
    await t.waitFor((s) => editorText(s) === "first line\nsecond line\nthird line");
  });

  it("answers a permission question in a dialog", async () => {
    const env = keelEnv({
      script: [
        { toolCalls: [{ name: "bash", arguments: { command: "echo made > out.txt" } }] },
        { text: "Wrote out.txt." },
      ],
    });
    const t = await started(env, ["--permission-mode", "ask"]);
    await send(t, "write a file", "Allow bash");
    expect(t.screen()).toContain("Allow once");
    t.press("enter");
    await t.waitFor("Wrote out.txt.");
    expect(readFileSync(join(env.cwd, "out.txt"), "utf8")).toBe("made\n");
  });

  it("refuses the call when the dialog is dismissed with Esc", async () => {
    const env = keelEnv({
      script: [
        { toolCalls: [{ name: "bash", arguments: { command: "echo made > out.txt" } }] },
        { text: "Understood." },
      ],
    });
    const t = await started(env, ["--permission-mode", "ask"]);
    await send(t, "write a file", "Allow once");
    t.press("escape");
    await t.waitFor("Understood.");
    expect(existsSync(join(env.cwd, "out.txt"))).toBe(false);
  });

  it("completes a slash command, its argument and a file path", async () => {
    const env = keelEnv({ files: { "src/math.ts": "export {}\n", "src/main.ts": "" }, script: [{ text: "ok" }] });
    const t = await started(env);
    t.type("/hel");
    await t.waitFor("List the commands and keys");
    t.press("tab");
    await t.waitFor((s) => editorText(s) === "/help");
    t.press("enter");
    await t.waitFor("Commands:");
    // A command's arguments: /thinking offers its levels.
    t.type("/thinking hi");
    await t.waitFor("→ high");
    t.press("tab");
    await t.waitFor((s) => editorText(s) === "/thinking high");
    t.press("ctrl+c");
    await t.waitFor((s) => editorText(s) === "");
    t.type("look at @sr");
    await t.waitFor((s) => editorText(s).startsWith("look at @sr") && s.includes("src/"));
    t.press("tab");
    await t.waitFor((s) => editorText(s) === "look at @src/");
    t.type("mat");
    await t.waitFor("src/math.ts");
    t.press("tab");
    await t.waitFor((s) => editorText(s) === "look at @src/math.ts");
  });
});
