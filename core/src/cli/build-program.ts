/**
 * `main`'s third step: the commander program — the kernel's flags and the plugins' added alike (`FlagSpec`),
 * the built-in and plugins' subcommands, and the main command's action, which checks the flags given and runs
 * a mode.
 */
import { Command } from "commander";
import type { SessionEndReason } from "@keel/extensions-api";
import { inspectPlugin } from "../runtime/inspect-plugin.js";
import { lockedFlagProblems } from "../settings/locked.js";
import { askYesNo } from "./ask-yes-no.js";
import { addBuiltinCommands } from "./builtin-commands.js";
import { addDeclaredCommands } from "./declared-commands.js";
import { addFlag, flagProblems, flagValue } from "./flag-problems.js";
import { kernelFlags } from "./kernel-flags.js";
import { nearMiss } from "./near-miss.js";
import { openSession } from "./open-session.js";
import type { Boot } from "./read-boot.js";
import { runMode } from "./run-mode.js";
import type { Started } from "./start-runtime.js";

export interface Program {
  command: Command;
  /** The exit code the action that ran set. */
  exitCode: number;
  /** Why the session ended, for `session_end`: set by the mode's run; anything that never got there is "other". */
  ending: { reason: SessionEndReason };
}

export function buildProgram(
  boot: Boot,
  { runtime, containment }: Started,
  out: (text: string) => void,
  err: (text: string) => void,
): Program {
  const { distribution, name, cwd } = boot;
  const built: Program = { command: new Command(name), exitCode: 0, ending: { reason: "other" } };
  const program = built.command
    .description(distribution.description ?? "")
    .version(distribution.version, "-v, --version")
    .argument("[prompt...]", "the prompt (for -p or a mode)")
    .configureOutput({ writeOut: out, writeErr: err })
    .exitOverride();
  const ownFlags = kernelFlags(name);
  for (const flag of ownFlags) addFlag(program, flag);
  for (const entry of runtime.contributions.flags.list()) addFlag(program, entry.item);
  addBuiltinCommands(program, runtime, out, err, name, (code) => (built.exitCode = code));
  /** What the flags' checks say of the flags given, and the flags that would undo a locked setting. */
  const sessionFlagProblems = async (opts: Record<string, unknown>): Promise<string[]> => {
    const flags = [...ownFlags, ...runtime.contributions.flags.list().map((e) => e.item)];
    return [
      ...(await flagProblems(program, flags, opts)),
      ...lockedFlagProblems(
        flags,
        (flag) => flagValue(program, opts, flag) !== undefined,
        runtime.lockedKeys,
        distribution.command,
      ),
    ];
  };
  /** The main command's work, also what a subcommand's `runMode` does: check the flags, run a mode. */
  const runSession = async (words: string[], opts: Record<string, unknown>): Promise<number> => {
    const problems = await sessionFlagProblems(opts);
    if (problems.length > 0) {
      for (const problem of problems) err(`${name}: ${problem}\n`);
      return 2;
    }
    Object.assign(runtime.flags, opts);
    return runMode(runtime, opts, words, err, containment, built.ending, name);
  };
  const { args, extraSettings, pluginPaths, trust } = boot;
  const sessionOptions = {
    cwd,
    keelHome: runtime.keelHome,
    distribution,
    safeMode: args.safeMode,
    trust,
    extraSettings,
    pluginPaths,
  };
  for (const entry of runtime.contributions.cliCommands.list()) {
    const spec = entry.item;
    const sub = program
      .command(`${entry.name}${spec.arguments ? ` ${spec.arguments}` : ""}`)
      .description(spec.description);
    for (const flag of spec.options ?? []) addFlag(sub, flag);
    sub.action(async (...actionArgs: unknown[]) => {
      const cmd = actionArgs[actionArgs.length - 1] as Command;
      // A subcommand flag that is also a main-command flag (`--yes`) is parsed by the main command: read both.
      const result = await spec.run(cmd.args, cmd.optsWithGlobals(), {
        cwd,
        keelHome: runtime.keelHome,
        distributionFile: boot.distributionFile,
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
        installPolicy: runtime.installPolicy,
      });
      built.exitCode = typeof result === "number" ? result : 0;
    });
  }
  addDeclaredCommands(program, runtime.host.waitingCliCommands(), err, name, (code) => (built.exitCode = code));
  program.action(async (words: string[], opts: Record<string, unknown>) => {
    const typo = nearMiss(words, program, name);
    if (typo) return void (err(typo), (built.exitCode = 2));
    built.exitCode = await runSession(words, opts);
  });
  return built;
}
