// The generated parts of docs/formats.md, from the catalogs the code runs on: Claude Code's hook events and the
// keel hook each sits on (plugins/hooks-command/src/events.ts, with the events keel does not run and why), and
// Claude Code's tool names with keel's counterparts (libs/formats/src/tools.ts).
import { createJiti } from "jiti";

/** @param {string} text */
const cell = (text) => text.replaceAll("|", "\\|");

/**
 * @param {URL} root the repository folder
 * @returns {Promise<{ hookEvents: string; toolNames: string }>}
 */
export async function formatTables(root) {
  const jiti = createJiti(new URL("scripts/docs/", root).href);
  /** @type {typeof import("../../plugins/hooks-command/src/events.ts")} */
  const events = await jiti.import(new URL("plugins/hooks-command/src/events.ts", root).pathname);
  /** @type {typeof import("../../libs/formats/src/tools.ts")} */
  const tools = await jiti.import(new URL("libs/formats/src/tools.ts", root).pathname);
  const hookEvents = [
    "| Claude Code event | keel runs it on | matcher sees | can block |",
    "|---|---|---|---|",
    ...Object.entries(events.EVENTS).map(
      ([name, e]) => `| \`${name}\` | \`${e.on}\` | ${e.matches ?? "—"} | ${e.blocks ? "yes" : "no"} |`,
    ),
    ...Object.entries(events.NOT_RUN).map(([name, why]) => `| \`${name}\` | not run: ${cell(why)} | — | — |`),
  ].join("\n");
  const toolNames = [
    "| Claude Code tool | keel tool |",
    "|---|---|",
    ...Object.entries(tools.CLAUDE_CODE_TOOLS).map(
      ([name, keel]) => `| \`${name}\` | ${keel ? `\`${keel}\`` : "none"} |`,
    ),
  ].join("\n");
  return { hookEvents, toolNames };
}
