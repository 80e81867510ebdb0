/**
 * What plugin code does to the process itself, contained and named. A plugin runs in keel's process with the
 * user's rights, so keel cannot stop it doing anything; it can keep a plugin's mistakes from ending a session
 * silently: `console.*` goes to stderr unless the running mode's own plugin calls it (stdout belongs to the
 * mode: `-p` answers and `--mode json` lines; a plugin's `console.log` in `activate` once corrupted both), an
 * error thrown from a timer or a rejection nobody handled is reported against the plugin whose files are on its
 * stack and the session carries on (one that no plugin's files are on still ends the process, as Node would),
 * and a plugin that calls `process.exit()` is named on stderr as it goes.
 * Installed by the CLI only, for the life of its process: a program that embeds keel owns its process.
 */
import { Console } from "node:console";
import { writeSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PluginRef } from "@keel/extensions-api";
import { errorText } from "@keel/kernel";

/** Who owns a source file (a plugin's folder holds it), and where to report that plugin's failure. */
export interface ContainmentTarget {
  ownerOf(file: string): PluginRef | undefined;
  report(plugin: PluginRef, phase: string, message: string): void;
}

const FRAME_FILE = /\(?((?:file:\/\/)?\/[^():\s]+):\d+:\d+\)?\s*$/;

/** The plugin whose file is the innermost frame of a stack that belongs to any plugin. */
function ownerOfStack(stack: string | undefined, target: ContainmentTarget | undefined): PluginRef | undefined {
  if (!stack || !target) return undefined;
  return ownerOfFiles(
    stack
      .split("\n")
      .slice(1)
      .map((line) => FRAME_FILE.exec(line)?.[1]),
    target,
  );
}

function ownerOfFiles(files: (string | undefined)[], target: ContainmentTarget): PluginRef | undefined {
  for (const file of files) {
    const owner = file && target.ownerOf(file.startsWith("file://") ? fileURLToPath(file) : file);
    if (owner) return owner;
  }
  return undefined;
}

/**
 * The plugin whose file is the innermost frame of the current call's stack. The frames' files are read from V8's
 * call sites: a stack formatted as text needs the line and column of every frame, and the first line number asked
 * of a script makes V8 index all of its line ends (the CLI bundle's 0.7 MB, on every exit).
 */
function ownerOfCaller(target: ContainmentTarget | undefined): PluginRef | undefined {
  if (!target) return undefined;
  const holder: { stack?: unknown } = {};
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, sites) => sites.map((site) => site.getFileName() ?? undefined);
  try {
    Error.captureStackTrace(holder, ownerOfCaller);
    return Array.isArray(holder.stack) ? ownerOfFiles(holder.stack as (string | undefined)[], target) : undefined;
  } finally {
    Error.prepareStackTrace = previous;
  }
}

export interface Containment {
  /** From now on, failures are reported to `target` (until then they are printed). */
  attach(target: ContainmentTarget): void;
  /** The plugin whose mode runs the session: its `console.*` reaches stdout; everyone else's goes to stderr. */
  setStdoutOwner(plugin: PluginRef): void;
}

export function containPlugins(command = "keel"): Containment {
  let target: ContainmentTarget | undefined;
  let stdoutOwner: PluginRef | undefined;
  const methods = console as unknown as Record<string, (...args: unknown[]) => void>;
  // Made on the first call that goes to stderr: a Console, with the process.stderr stream under it, costs a start
  // ~1 ms (and node:console), and most runs log nothing.
  let stderrConsole: typeof methods | undefined;
  const toStderr = () =>
    (stderrConsole ??= new Console({ stdout: process.stderr, stderr: process.stderr }) as unknown as typeof methods);
  const toStdout = { ...methods };
  // Only the mode's own calls pay for the stack walk; before a mode runs, nobody owns stdout.
  const mayUseStdout = () => stdoutOwner !== undefined && ownerOfCaller(target)?.name === stdoutOwner.name;
  // The methods a Console has (the global console has a few more of its own, such as `profile`).
  for (const [name, fn] of Object.entries(methods)) {
    if (typeof fn === "function" && typeof (Console.prototype as unknown as typeof methods)[name] === "function")
      methods[name] = (...args) => (mayUseStdout() ? toStdout : toStderr())[name]!(...args);
  }

  const realExit = process.exit;
  const escaped = (kind: string) => (error: unknown) => {
    const stack = error instanceof Error ? error.stack : undefined;
    const owner = ownerOfStack(stack, target);
    const what = `${kind}: ${errorText(error)}`;
    if (owner && target)
      return target.report(
        owner,
        "uncaught",
        `${what}. ${command} carried on; the plugin may not work as intended until it is fixed.`,
      );
    // Not a plugin's: keel's own failure (or one it cannot place), which ends the process as Node would.
    writeSync(
      2,
      `${command}: ${what}, and no plugin's files are on its stack: ending (exit 1).${stack ? `\n${stack}` : ""}\n`,
    );
    realExit.call(process, 1);
  };
  const onException = escaped("an error was thrown outside any call keel made (from a timer or an event handler)");
  const onRejection = escaped("a promise was rejected and nobody handled it");
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);

  process.exit = ((code?: number | string | null) => {
    const owner = ownerOfCaller(target);
    // Synchronous: the process ends right after, and a buffered write would be lost.
    if (owner)
      writeSync(
        2,
        `${command}: plugin ${owner.name}@${owner.version} called ` +
          `process.exit(${code ?? ""}); ${command} ends with that code.\n`,
      );
    return realExit.call(process, code as number);
  }) as typeof process.exit;

  return {
    attach(next) {
      target = next;
    },
    setStdoutOwner(plugin) {
      stdoutOwner = plugin;
    },
  };
}
