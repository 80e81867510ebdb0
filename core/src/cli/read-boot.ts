/**
 * `main`'s first step: what must be known before any plugin loads — the boot flags, the distribution, the
 * workspace folder, the `--settings` and `--plugin` values, and how the folder's trust may be asked. A problem
 * with any of them ends the command (exit 2) before anything runs.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { type Distribution, readDistribution } from "../runtime/read-distribution.js";
import type { SettingsObject } from "../settings/layers.js";
import type { TrustOptions } from "../trust/decide.js";
import { scanBootArgs, type BootArgs } from "./boot-args.js";
import { readBootValues } from "./boot-values.js";
import { BUILTIN_COMMANDS } from "./builtin-commands.js";
import { LINE_MODE, onCapableTerminal, TUI_MODE } from "./default-mode.js";
import { nearName } from "./near-miss.js";

export interface Boot {
  args: BootArgs;
  distribution: Distribution;
  /** The distribution's command name, in every message. */
  name: string;
  /** Path of the distribution's package.json. */
  distributionFile: string;
  cwd: string;
  extraSettings: SettingsObject[];
  pluginPaths: string[];
  trust: TrustOptions;
}

/** The boot, or the exit code of a command that cannot start (its problems written to `err`). */
export function readBoot(argv: string[], distributionFile: string, err: (text: string) => void): Boot | number {
  const args = scanBootArgs(argv);
  let distribution: Distribution;
  try {
    distribution = readDistribution(distributionFile);
  } catch (error) {
    err(`keel: ${(error as Error).message}\n`);
    return 2;
  }
  const name = distribution.command;
  const cwd = resolve(args.cwd ?? process.cwd());
  const cwdProblem = args.cwd === undefined ? undefined : folderProblem(cwd);
  if (cwdProblem) {
    err(
      `${name}: --cwd ${args.cwd}: ${cwdProblem}. Name an existing folder, or leave --cwd out to ` +
        `work in the current one.\n`,
    );
    return 2;
  }
  const values = readBootValues(args, cwd);
  if (!values.ok) {
    for (const e of values.errors) err(`${name}: ${e}\n`);
    return 2;
  }
  // A built-in subcommand, a near miss of one (answered "did you mean"), or help: nothing to ask about.
  const builtin =
    args.firstWord !== undefined &&
    (BUILTIN_COMMANDS.includes(args.firstWord) || nearName(args.firstWord, BUILTIN_COMMANDS) !== undefined);
  const trust = {
    granted: args.trust,
    interactive: !args.print && [LINE_MODE, TUI_MODE].includes(args.mode ?? LINE_MODE) && !builtin && !args.onlyPrints,
    firstWord: args.firstWord,
    // What plain `keel` will run when the TUI is installed (runMode's choice); a UI asks only in its own mode.
    mode: args.mode ?? (onCapableTerminal() ? TUI_MODE : LINE_MODE),
  };
  const { extraSettings, pluginPaths } = values;
  return { args, distribution, name, distributionFile, cwd, extraSettings, pluginPaths, trust };
}

/** Why `dir` cannot be the workspace, or undefined when it can. */
function folderProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : "is a file, not a folder";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"
      ? "no such folder"
      : `cannot be used (${(error as Error).message})`;
  }
}
