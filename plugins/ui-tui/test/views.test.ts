/**
 * The terminal UI's collapsible thinking and its free-text dialog, in a real terminal: thinking shows as one
 * line until ctrl+t opens it (and closes it again); a question asking for text (the permission prompt's "why
 * not?" after Deny) is answered by typing in the dialog, and the model sees the answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { closeAll, send, sessionEntries, started } from "./screen.ts";

afterEach(closeAll);

describe("the terminal UI's views", () => {
  it("collapses thinking to one line; ctrl+t shows it and hides it again", async () => {
    const env = keelEnv({ script: [{ thinking: "First I weigh it.\nThen I decide.", text: "The answer." }] });
    const t = await started(env);
    await send(t, "think first", "The answer.");
    expect(t.screen()).toContain("∴ Thinking (2 lines; ctrl+t shows)");
    expect(t.screen()).not.toContain("First I weigh it.");
    t.press("ctrl+t");
    await t.waitFor((s) => s.includes("First I weigh it.") && s.includes("Then I decide."));
    expect(t.screen()).not.toContain("∴ Thinking");
    t.press("ctrl+t");
    await t.waitFor((s) => s.includes("∴ Thinking (2 lines; ctrl+t shows)") && !s.includes("First I weigh it."));
  });

  it("answers a question asking for text in a dialog: the reason for a denial reaches the model", async () => {
    const env = keelEnv({
      script: [
        { toolCalls: [{ name: "bash", arguments: { command: "echo made > out.txt" } }] },
        { text: "Understood, I will not." },
      ],
    });
    const t = await started(env, ["--permission-mode", "ask"]);
    await send(t, "write a file", "Allow once");
    // Deny is the last option, a few below the first. Each press is waited for by the option it selects, not by
    // any change of the screen (a redraw for something else made a loaded machine press enter on another option).
    const selected = (screen: string) => /→ (.+)/.exec(screen)?.[1];
    for (let i = 0; i < 5 && !/→ Deny/.test(t.screen()); i++) {
      const before = selected(t.screen());
      t.press("down");
      await t.waitFor(() => selected(t.screen()) !== before);
    }
    await t.waitFor(() => /→ Deny/.test(t.screen()));
    t.press("enter");
    await t.waitFor("Why not? The model sees your answer");
    t.type("not in this folder");
    await t.waitFor("not in this folder");
    t.press("enter");
    await t.waitFor("Understood, I will not.");
    const result = sessionEntries(env.home).find((e) => e.message?.role === "toolResult");
    expect(JSON.stringify(result.message.content)).toContain("The user denied this call: not in this folder");
  });
});
