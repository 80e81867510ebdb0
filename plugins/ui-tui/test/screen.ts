/**
 * What the terminal UI's tests share: the real binary on the scripted model in a terminal, the editor's text
 * read off the screen, and the session file's entries.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SCRIPTED, type KeelEnv } from "../../../test/support/keel-cli.ts";
import { TerminalSession } from "../../../test/support/terminal.ts";

const open: TerminalSession[] = [];

/** What the first screen ends with: the footer's context figure. */
export const READY = "context 0%";

/** keel in a terminal with `argv` as its whole command line; `closeAll` kills what was started. */
export function startWith(argv: string[], env: KeelEnv, extraEnv?: Record<string, string>): TerminalSession {
  const term = new TerminalSession(argv, env, { extraEnv });
  open.push(term);
  return term;
}

/** keel in a terminal with the scripted model; `closeAll` kills what was started. */
export function start(env: KeelEnv, args: string[] = [], extraEnv?: Record<string, string>): TerminalSession {
  return startWith([...SCRIPTED, ...args], env, extraEnv);
}

/** `start`, resolved once the first screen is drawn. */
export async function started(
  env: KeelEnv,
  args: string[] = [],
  extraEnv?: Record<string, string>,
): Promise<TerminalSession> {
  const term = start(env, args, extraEnv);
  await term.waitFor(READY);
  return term;
}

/** Types `text` and Enter; resolves the screen once it shows `until`. */
export function send(term: TerminalSession, text: string, until: Parameters<TerminalSession["waitFor"]>[0]) {
  term.type(text);
  term.press("enter");
  return term.waitFor(until);
}

export function closeAll(): void {
  for (const term of open.splice(0)) term.kill();
}

/** Every entry of the one session file under `home`. */
export function sessionEntries(home: string): any[] {
  const dir = join(home, "sessions");
  const file = readdirSync(dir, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(".jsonl"))!;
  return readFileSync(join(dir, file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** The editor's text: the lines between its two rules, the last rules drawn on the screen. */
export function editorText(screen: string): string {
  const lines = screen.split("\n");
  const rules = lines.flatMap((line, i) => (/^─{20,}/.test(line) ? [i] : []));
  const [top, bottom] = rules.slice(-2);
  return lines
    .slice(top! + 1, bottom)
    .join("\n")
    .trim();
}
