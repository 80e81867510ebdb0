/**
 * The `keel` command, in four named steps: `readBoot` (what must be known before plugins load) →
 * `startRuntime` (settings, trust, the startup plugins) → `buildProgram` (commander with the kernel's and the
 * plugins' flags and subcommands) → `run` (parse, run the action, shut the session down). Exit code 0 when the
 * run succeeded.
 */
import "./zod-jitless.js"; // first: before any module builds a schema
import { CommanderError } from "commander";
import { trace } from "@keel/kernel";
import type { KeelRuntime } from "../runtime/runtime.js";
import { buildProgram, type Program } from "./build-program.js";
import { readBoot } from "./read-boot.js";
import { startRuntime } from "./start-runtime.js";
import { endOnClosedOutput } from "./closed-output.js";

export interface MainOptions {
  /** Path of the distribution's package.json. */
  distributionFile: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

export async function main(argv: string[], options: MainOptions): Promise<number> {
  const out = options.stdout ?? ((t: string) => void process.stdout.write(t));
  const err = options.stderr ?? ((t: string) => void process.stderr.write(t));
  trace("main");
  const boot = readBoot(argv, options.distributionFile, err);
  if (typeof boot === "number") return boot;
  const started = await startRuntime(boot, err);
  if (typeof started === "number") return started;
  endOnClosedOutput(started.runtime);
  return run(buildProgram(boot, started, out, err), started.runtime, argv, boot.name, err);
}

/** Parses the command line, which runs the chosen action, then ends the session whatever happened. */
async function run(
  program: Program,
  runtime: KeelRuntime,
  argv: string[],
  name: string,
  err: (text: string) => void,
): Promise<number> {
  try {
    await program.command.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) program.exitCode = error.exitCode;
    else {
      err(`${name}: ${(error as Error).stack ?? error}\n`);
      program.exitCode = 1;
    }
  } finally {
    trace("shutdown");
    await runtime.shutdown(program.ending.reason);
    trace(`shut down (peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB)`);
  }
  return program.exitCode;
}
