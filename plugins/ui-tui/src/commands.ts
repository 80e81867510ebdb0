/**
 * The TUI's own commands (/help, /exit, /quit) and the slash commands it offers for completion: its own, every
 * plugin's registered ones, with their descriptions.
 */
import type { SlashCommand as CompletionCommand } from "@earendil-works/pi-tui";
import type { Runtime } from "@keel/extensions-api";
import { PICKER_COMMANDS, pickerArguments } from "./pickers.ts";

export const OWN_COMMANDS = [
  { name: "/help", description: "List the commands and keys" },
  { name: "/exit", description: "End the session" },
  ...PICKER_COMMANDS,
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
  return [...OWN_COMMANDS, ...runtime.listCommands()]
    .filter((c) => !seen.has(c.name) && seen.add(c.name))
    .map((c) => ({
      name: c.name.slice(1),
      description: c.description,
      ...(PICKER_COMMANDS.some((p) => p.name === c.name) && {
        getArgumentCompletions: (prefix: string) => pickerArguments(runtime, c.name, prefix),
      }),
    }));
}

export function helpText(runtime: Runtime): string {
  const own = OWN_COMMANDS.filter((c) => c.name !== "/quit");
  const commands = [...own, ...runtime.listCommands().filter((c) => !own.some((o) => o.name === c.name))];
  const width = Math.max(...commands.map((c) => c.name.length));
  const keys = [...KEYS, ...runtime.ui().keybindings.map((k) => [k.key, `${k.description} (${k.command})`] as const)];
  const keyWidth = Math.max(...keys.map(([k]) => k.length));
  return [
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.description}`),
    "Keys:",
    ...keys.map(([k, what]) => `  ${k.padEnd(keyWidth)}  ${what}`),
  ].join("\n");
}
