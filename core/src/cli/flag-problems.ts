/** The main command's flags as commander parsed them: the value of one, and what plugin flags' checks say. */
import type { Command } from "commander";
import type { FlagSpec } from "@keel/extensions-api";

/** The value given for the flag `--<name>`, or undefined when it was not given. */
export function flagValue(program: Command, opts: Record<string, unknown>, name: string): unknown {
  const option = program.options.find((o) => o.long === `--${name}`);
  return option ? opts[option.attributeName()] : undefined;
}

/** What plugin flags' `check` say about the values given; a check that throws is reported as its problem. */
export async function flagProblems(
  program: Command,
  flags: FlagSpec[],
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
