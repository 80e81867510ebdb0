/**
 * The `keel` command: boot flags → settings and plugins → commander with the flags and subcommands plugins
 * added → a mode (UI) runs the session. Exit code 0 when the run succeeded.
 */
import "./zod-jitless.js"; // first: before any module builds a schema
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { THINKING_LEVELS, type FlagSpec, type SessionEndReason } from "@keel/extensions-api";
import { KeelRuntime, type Distribution } from "../runtime/runtime.js";
import { distributionHome, readDistribution } from "../runtime/read-distribution.js";
import { inspectPlugin } from "../runtime/inspect-plugin.js";
import { containPlugins, type Containment } from "../host/containment.js";
import { scanBootArgs } from "./boot-args.js";
import { readBootValues } from "./boot-values.js";
import { trace } from "@keel/kernel";
import { KERNEL_SETTING_FLAGS, lockedFlagProblems } from "../settings/locked.js";
import { addBuiltinCommands, BUILTIN_COMMANDS } from "./builtin-commands.js";
import { addDeclaredCommands } from "./declared-commands.js";
import { RequiredPluginError } from "../runtime/required-plugins.js";
import { askYesNo } from "./ask-yes-no.js";
import { defaultMode, LINE_MODE, onCapableTerminal, TUI_MODE } from "./default-mode.js";
import { openSession } from "./open-session.js";
import { flagProblems, flagValue } from "./flag-problems.js";
import { nearMiss, nearName } from "./near-miss.js";
import { endOnClosedOutput } from "./closed-output.js";

export interface MainOptions {
  /** Path of the distribution's package.json. */
  distributionFile: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

function addFlag(cmd: Command, flag: FlagSpec): void {
  const value = flag.type === "boolean" ? "" : ` ${flag.valueName ?? "<value>"}`;
  const spec = `${flag.short ? `-${flag.short}, ` : ""}--${flag.name}${value}`;
  if (flag.type === "string[]") cmd.option(spec, flag.description, (v: string, prev: string[] = []) => [...prev, v]);
  else cmd.option(spec, flag.description);
}

export async function main(argv: string[], options: MainOptions): Promise<number> {
  const out = options.stdout ?? ((t: string) => void process.stdout.write(t));
  const err = options.stderr ?? ((t: string) => void process.stderr.write(t));
  trace("main");
  const boot = scanBootArgs(argv);
  let distribution: Distribution;
  try {
    distribution = readDistribution(options.distributionFile);
  } catch (error) {
    err(`keel: ${(error as Error).message}\n`);
    return 2;
  }
  const name = distribution.command;
  const cwd = resolve(boot.cwd ?? process.cwd());
  const cwdProblem = boot.cwd === undefined ? undefined : folderProblem(cwd);
  if (cwdProblem) {
    err(
      `${name}: --cwd ${boot.cwd}: ${cwdProblem}. Name an existing folder, or leave --cwd out to ` +
        `work in the current one.\n`,
    );
    return 2;
  }
  const values = readBootValues(boot, cwd);
  if (!values.ok) {
    for (const e of values.errors) err(`${distribution.command}: ${e}\n`);
    return 2;
  }
  const { extraSettings, pluginPaths } = values;

  // A built-in subcommand, a near miss of one (answered "did you mean"), or help: nothing to ask about.
  const builtin =
    boot.firstWord !== undefined &&
    (BUILTIN_COMMANDS.includes(boot.firstWord) || nearName(boot.firstWord, BUILTIN_COMMANDS) !== undefined);
  const trust = {
    granted: boot.trust,
    interactive: !boot.print && [LINE_MODE, TUI_MODE].includes(boot.mode ?? LINE_MODE) && !builtin && !boot.onlyPrints,
    firstWord: boot.firstWord,
    // What plain `keel` will run when the TUI is installed (main's choice below); a UI asks only in its own mode.
    mode: boot.mode ?? (onCapableTerminal() ? TUI_MODE : LINE_MODE),
  };
  // Before any plugin code runs, for the rest of the process: plugins' console output, stray errors and
  // process.exit are contained from the start.
  const containment = containPlugins(name);
  let runtime: KeelRuntime;
  try {
    runtime = await KeelRuntime.create(
      {
        cwd,
        keelHome: distributionHome(name),
        distribution,
        pluginPaths,
        safeMode: boot.safeMode,
        extraSettings,
        trust,
      },
      (rt) => {
        rt.bus.on("plugin_error", (e) =>
          err(`${distribution.command}: plugin ${e.plugin.name}@${e.plugin.version}: ${e.message}\n`),
        );
        rt.bus.on("plugin_warning", (e) =>
          err(`${distribution.command}: ${e.plugin ? `plugin ${e.plugin.name}: ` : ""}${e.message}\n`),
        );
        containment.attach({
          ownerOf: (file) => rt.host.ownerOfFile(file),
          report: (plugin, phase, message) => rt.bus.emit("plugin_error", { plugin, phase, message }),
        });
      },
    );
  } catch (error) {
    if (!(error instanceof RequiredPluginError)) throw error;
    err(`${distribution.command}: ${error.message}\n`);
    return 2;
  }
  trace("runtime ready (startup plugins active)");
  endOnClosedOutput(runtime);
  for (const w of runtime.warnings) err(`${distribution.command}: ${w}\n`);
  // `keel trust` is about to answer it; everywhere else the one notice says what was skipped.
  if (runtime.trust?.notice && boot.firstWord !== "trust") err(`${distribution.command}: ${runtime.trust.notice}\n`);
  if (boot.firstWord && runtime.host.waitsFor("cliCommands", boot.firstWord))
    await runtime.host.activateFor("cliCommands", boot.firstWord);

  let exitCode = 0;
  // Why the session ended, for `session_end`: set by the mode's run; anything that never got there is "other".
  const ending: { reason: SessionEndReason } = { reason: "other" };
  const program = new Command(distribution.command)
    .description(distribution.description ?? "")
    .version(distribution.version, "-v, --version")
    .argument("[prompt...]", "the prompt (for -p or a mode)")
    .option("-p, --print [prompt]", "run one prompt without interaction and print the answer")
    .option("--mode <mode>", "how to present the session: text, json, or a mode a plugin adds")
    .option("--provider <id>", `provider to use (see \`${name} models\`)`)
    .option("--model <id>", "model to use")
    .addOption(new Option("--thinking <level>", "how hard a model that reasons thinks first").choices(THINKING_LEVELS))
    .option("--cwd <dir>", "workspace folder (default: the current folder)")
    .option("--plugin <path>", "load a plugin folder (repeatable)")
    .option("--settings <json|file>", "extra settings, over the settings files (repeatable)", collect)
    .option("--safe-mode", "load only the distribution's own plugins")
    .option("--trust", "trust this folder's own configuration (.keel/settings.json, .mcp.json) for this run")
    .configureOutput({ writeOut: out, writeErr: err })
    .exitOverride();
  for (const entry of runtime.contributions.flags.list()) addFlag(program, entry.item);
  addBuiltinCommands(program, runtime, out, err, name, (code) => (exitCode = code));
  /** What plugin flags' checks say of the flags given, and the flags that would undo a locked setting. */
  const sessionFlagProblems = async (opts: Record<string, unknown>): Promise<string[]> => {
    const pluginFlags = runtime.contributions.flags.list().map((e) => e.item);
    return [
      ...(await flagProblems(program, pluginFlags, opts)),
      ...lockedFlagProblems(
        [...KERNEL_SETTING_FLAGS, ...pluginFlags],
        (flag) => flagValue(program, opts, flag) !== undefined,
        runtime.lockedKeys,
        distribution.command,
      ),
    ];
  };
  /** The main command's work, also what a subcommand's `runMode` does: check plugin flags, run a mode. */
  const runSession = async (words: string[], opts: Record<string, unknown>): Promise<number> => {
    const problems = await sessionFlagProblems(opts);
    if (problems.length > 0) {
      for (const problem of problems) err(`${distribution.command}: ${problem}\n`);
      return 2;
    }
    Object.assign(runtime.flags, opts);
    return runMode(runtime, opts, words, err, containment, ending, name);
  };
  const sessionOptions = { cwd, keelHome: runtime.keelHome, distribution, safeMode: boot.safeMode, trust, ...values };
  for (const entry of runtime.contributions.cliCommands.list()) {
    const spec = entry.item;
    const sub = program
      .command(`${entry.name}${spec.arguments ? ` ${spec.arguments}` : ""}`)
      .description(spec.description);
    for (const flag of spec.options ?? []) addFlag(sub, flag);
    sub.action(async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      // A subcommand flag that is also a main-command flag (`--yes`) is parsed by the main command: read both.
      const result = await spec.run(cmd.args, cmd.optsWithGlobals(), {
        cwd,
        keelHome: runtime.keelHome,
        distributionFile: options.distributionFile,
        inspectPlugin,
        stdout: out,
        stderr: err,
        listPlugins: () => runtime.listPlugins(),
        runMode: (mode) => runSession([], { ...program.opts(), mode }),
        openSession: async (o) => {
          const problems = await sessionFlagProblems(program.opts());
          if (problems.length > 0) throw new Error(problems.join("; "));
          return openSession({ ...sessionOptions, flags: program.opts() }, entry.owner, err, o?.ask);
        },
        command: distribution.command,
        confirm: (question) => askYesNo(question, err),
        projectTrusted: runtime.trust?.trusted ?? false,
        changeProjectConfig: (change) => runtime.changeProjectConfig(change),
        ...runtime.catalogPolicy,
      });
      exitCode = typeof result === "number" ? result : 0;
    });
  }
  addDeclaredCommands(program, runtime.host.waitingCliCommands(), err, name, (code) => (exitCode = code));
  program.action(async (words: string[], opts: Record<string, unknown>) => {
    const typo = nearMiss(words, program, name);
    if (typo) return void (err(typo), (exitCode = 2));
    exitCode = await runSession(words, opts);
  });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) exitCode = error.exitCode;
    else {
      err(`${distribution.command}: ${(error as Error).stack ?? error}\n`);
      exitCode = 1;
    }
  } finally {
    trace("shutdown");
    await runtime.shutdown(ending.reason);
    trace(`shut down (peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB)`);
  }
  return exitCode;
}

/** Every value of a repeatable flag, so that a subcommand passing them on (`keel batch`) has them all. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

async function runMode(
  runtime: KeelRuntime,
  opts: Record<string, unknown>,
  words: string[],
  err: (t: string) => void,
  containment: Containment,
  ending: { reason: SessionEndReason },
  name: string,
): Promise<number> {
  let prompt = typeof opts.print === "string" ? opts.print : words.length > 0 ? words.join(" ") : undefined;
  if (prompt === undefined && opts.print === true && !process.stdin.isTTY) prompt = await readStdin();
  const tuiInstalled =
    runtime.contributions.modes.get(TUI_MODE) !== undefined || runtime.host.waitsFor("modes", TUI_MODE);
  const modeName =
    typeof opts.mode === "string" ? opts.mode : opts.print !== undefined ? "text" : defaultMode(tuiInstalled);
  await runtime.host.activateFor("modes", modeName);
  const mode = runtime.contributions.modes.get(modeName);
  if (!mode) {
    const installed = runtime
      .listPlugins()
      .filter((p) => p.state !== "failed" && p.state !== "disabled")
      .flatMap((p) => p.contributes.modes);
    const hint = modeName === LINE_MODE ? ` Run with -p "<prompt>" to print an answer.` : "";
    err(
      `${name}: no "${modeName}" mode is ` +
        `installed${installed.length ? ` (installed: ${installed.join(", ")})` : ""}.${hint}\n`,
    );
    return 2;
  }
  containment.setStdoutOwner(mode.owner);
  // Ctrl-C aborts the run (a second one, or one while idle, exits). TERM aborts and shuts down cleanly, so
  // plugins still stop what they started (background processes, locks) before the process goes.
  // Idle, it is the user leaving: the session still ends properly (session_end, background processes).
  const onInterrupt = () =>
    runtime.isRunning ? runtime.abort() : void runtime.shutdown("exit").finally(() => process.exit(130));
  const onTerminate = () => {
    runtime.abort();
    void runtime.shutdown("signal").finally(() => process.exit(143));
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  try {
    // The mode is the session's UI, so it can show the model from the start (the session starts on first use).
    await runtime.pickModel();
    const code = await mode.item.run(runtime, { prompt });
    // An interactive mode returns when the user leaves it (/exit, end of input); any other mode has finished.
    ending.reason = modeName === "interactive" ? "exit" : "completed";
    return code;
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onTerminate);
  }
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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}
