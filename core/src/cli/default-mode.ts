/**
 * Which mode plain `keel` runs: the full-screen terminal UI (`tui`) when stdin and stdout are terminals that
 * can draw it and a plugin offers it; else the line chat (`interactive`), which works on pipes and dumb
 * terminals alike.
 */
export const TUI_MODE = "tui";
export const LINE_MODE = "interactive";

/** Whether this process talks to a terminal the TUI can draw on. */
export function onCapableTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true && process.env.TERM !== "dumb";
}

/** The default mode, given whether a plugin offers the TUI (registered or waiting to be loaded). */
export function defaultMode(tuiInstalled: boolean): string {
  return tuiInstalled && onCapableTerminal() ? TUI_MODE : LINE_MODE;
}
