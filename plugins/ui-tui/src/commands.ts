/**
 * The TUI's own commands (/exit, /quit) and keys, and the slash commands it offers for completion: its own and
 * every plugin's, with their descriptions, and the arguments a command offers (`SlashCommand.complete`).
 * /help is the shared command (slash-commands); the TUI adds its keys below what it lists.
 */
import type { SlashCommand as CompletionCommand } from "@earendil-works/pi-tui";
import type { Runtime } from "@keel/extensions-api";

export const OWN_COMMANDS = [
  { name: "/exit", description: "End the session" },
  { name: "/quit", description: "End the session" },
];

export const KEYS = [
  ["enter", "send; while the agent works, steer it (it reads the message at its next step)"],
  ["alt+enter", "while the agent works, queue a follow-up for when it stops; else a new line"],
  ["shift+enter, \\ enter", "a new line"],
  ["esc", "abort the run; queued messages come back to the editor"],
  ["ctrl+o", "expand or collapse tool output"],
  ["ctrl+t", "show or hide thinking"],
  ["up / down", "earlier messages (history)"],
  ["tab, @", "complete a command, a path"],
  ["ctrl+c", "abort, clear the editor, or exit"],
  ["ctrl+d", "exit (empty editor)"],
] as const;

export function completionCommands(runtime: Runtime): CompletionCommand[] {
  const seen = new Set<string>();
  return [...runtime.listCommands(), ...OWN_COMMANDS]
    .filter((c) => !seen.has(c.name) && seen.add(c.name))
    .map((c) => ({
      name: c.name.slice(1),
      description: c.description,
      getArgumentCompletions: async (prefix: string) => {
        const values = await runtime.completeCommand(c.name, prefix);
        return values.map((v) => ({
          value: v.value,
          label: v.value,
          ...(v.description && { description: v.description }),
        }));
      },
    }));
}

/** What /help adds in the terminal UI: its own commands and keys. */
export function keysText(): string {
  const width = Math.max(...KEYS.map(([k]) => k.length));
  return ["/exit ends the session. Keys:", ...KEYS.map(([k, what]) => `  ${k.padEnd(width)}  ${what}`)].join("\n");
}
