/**
 * Which mode plain `keel` runs: the full-screen terminal UI (`tui`) when stdin and stdout are terminals that
 * can draw it and a plugin offers it; else the line chat (`interactive`), which works on pipes and dumb
 * terminals alike.
 */
import { isatty } from "node:tty";

export const TUI_MODE = "tui";
export const LINE_MODE = "interactive";

/**
 * Whether this process talks to a terminal the TUI can draw on. Asked of the file descriptors, not of
 * `process.stdin`/`process.stdout`: reading those builds the streams, and a stdin that is a file (`< /dev/null`,
 * or nothing, as a spawn with `stdio: "ignore"` gives) loads Node's file streams, file promises and readline with
 * it (~1.5 ms) for a `-p` run that never reads stdin.
 */
export function onCapableTerminal(): boolean {
  return isatty(0) && isatty(1) && process.env.TERM !== "dumb";
}

/** The default mode, given whether a plugin offers the TUI (registered or waiting to be loaded). */
export function defaultMode(tuiInstalled: boolean): string {
  return tuiInstalled && onCapableTerminal() ? TUI_MODE : LINE_MODE;
}
