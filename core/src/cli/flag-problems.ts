/**
 * Flags on commander, the kernel's and plugins' alike (`FlagSpec`): adding one to a command, the value one was
 * given, and what the flags' own checks say of the values given.
 */
import { Option, type Command } from "commander";
import type { FlagSpec } from "@keel/extensions-api";

/** Every value of a repeatable flag, so that a subcommand passing them on (`keel batch`) has them all. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds `flag` to `cmd` as an option. */
export function addFlag(cmd: Command, flag: FlagSpec): void {
  const value = flag.type === "boolean" ? "" : ` ${flag.valueName ?? "<value>"}`;
  const option = new Option(`${flag.short ? `-${flag.short}, ` : ""}--${flag.name}${value}`, flag.description);
  if (flag.choices) option.choices(flag.choices);
  if (flag.type === "string[]") option.argParser(collect);
  cmd.addOption(option);
}

/** The value given for the flag `--<name>`, or undefined when it was not given. */
export function flagValue(program: Command, opts: Record<string, unknown>, name: string): unknown {
  const option = program.options.find((o) => o.long === `--${name}`);
  return option ? opts[option.attributeName()] : undefined;
}

/** What flags' `check` say about the values given; a check that throws is reported as its problem. */
export async function flagProblems(
  program: Command,
  flags: readonly FlagSpec[],
  opts: Record<string, unknown>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const flag of flags) {
    const value = flagValue(program, opts, flag.name);
    if (!flag.check || value === undefined) continue;
    try {
      const problem = await flag.check(value);
      if (problem) problems.push(problem);
    } catch (error) {
      problems.push(`--${flag.name}: ${(error as Error).message}`);
    }
  }
  return problems;
}
