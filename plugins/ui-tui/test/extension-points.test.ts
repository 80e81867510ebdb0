/**
 * The UI extension points as first-party plugins use them, on every surface: in the terminal UI (a real
 * terminal), an edit shows its diff, bash its command line, and examples/todo its widget, status entry,
 * session-entry renderer and key; the line chat and `--mode json` show the same lines as plain text.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";
import { closeAll, send, started } from "./screen.ts";

const TODO = fileURLToPath(new URL("../../../examples/todo", import.meta.url));

afterEach(closeAll);

const files = { "math.js": "export function add(a, b) {\n  return a - b;\n}\n" };
const script = [
  {
    toolCalls: [
      { name: "todo", arguments: { action: "add", text: "fix add" } },
      { name: "todo", arguments: { action: "add", text: "run the tests" } },
    ],
  },
  { toolCalls: [{ name: "edit", arguments: { path: "math.js", edits: [{ oldText: "a - b", newText: "a + b" }] } }] },
  { toolCalls: [{ name: "bash", arguments: { command: "node -e \"console.log('checked')\"" } }] },
  { toolCalls: [{ name: "todo", arguments: { action: "done", id: 1 } }] },
  { text: "Fixed add." },
];

describe("UI extension points", () => {
  it("draws a tool's own lines, a widget, a status entry, an entry renderer and a plugin key in the TUI", async () => {
    const env = keelEnv({ files, script });
    const t = await started(env, ["--permission-mode", "full", "--plugin", TODO]);
    const screen = await send(t, "fix the bug", "Fixed add.");
    // The edit as its diff, bash as a shell line.
    expect(screen).toMatch(/● edit math\.js\n {2}⎿ \+1 -1 lines[\s\S]*- {2}return a - b;\n {4}\+ {2}return a \+ b;/);
    expect(screen).toContain(`● $ node -e "console.log('checked')"`);
    // The todo entries as the plugin renders them; its widget above the editor and its status in the footer.
    expect(screen).toContain("☑ todo list: 1 of 2 done");
    const bottom = t.screen().split("\n").slice(-8).join("\n");
    expect(bottom).toMatch(/Todo\n☐ 2\. run the tests\n─{20,}/);
    expect(bottom).toMatch(/context \d+% · todo 1\/2$/);
    // alt+t runs /todos.
    t.type("\x1bt");
    await t.waitFor("Todos:\n1. [x] fix add\n2. [ ] run the tests");
  });

  it("shows the same lines as plain text in the line chat and in --mode json", async () => {
    const chatEnv = keelEnv({ files, script });
    const chat = await runKeel([...SCRIPTED, "--permission-mode", "full", "--plugin", TODO], chatEnv, {
      input: "fix the bug\n",
    });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toMatch(/● edit math\.js\n {2}⎿ \+1 -1 lines\n {4}@@ .*\n[\s\S]* {4}\+ {2}return a \+ b;/);
    expect(chat.stderr).toContain("☑ todo list: 1 of 2 done");
    // After the run: the widget and the status entry.
    expect(chat.stderr).toMatch(/Todo\n☐ 2\. run the tests\ntodo 1\/2\n/);
    expect(chat.stderr).not.toContain("\x1b[");

    const jsonEnv = keelEnv({ files, script });
    const json = await runKeel(
      ["-p", "fix the bug", "--mode", "json", ...SCRIPTED, "--permission-mode", "full", "--plugin", TODO],
      jsonEnv,
    );
    expect(json.code).toBe(0);
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const start = lines.find((l) => l.type === "tool_execution_start" && l.toolName === "edit");
    expect(start.rendered).toEqual(["edit math.js"]);
    const end = lines.find((l) => l.type === "tool_execution_end" && l.toolName === "edit");
    expect(end.rendered).toContain("+  return a + b;");
    expect(lines.filter((l) => l.type === "session_entry").map((l) => l.rendered)).toContainEqual([
      "☑ todo list: 1 of 2 done",
    ]);
  });
});
