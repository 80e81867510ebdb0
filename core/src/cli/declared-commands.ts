/**
 * The subcommands lazy plugins declare in full, listed in `--help` before their plugin loads. Such a plugin
 * loads when the command line's first word names its command (boot-args.ts), and its registered command
 * replaces the listing; the listing itself runs only when the command came later, after an option whose value
 * boot-args could not know (`keel --permission-mode full serve`), and then says how to run it rather than
 * taking the command's name as a prompt.
 */
import type { Command } from "commander";
import type { CliCommandDeclaration } from "@keel/extensions-api";

export function addDeclaredCommands(
  program: Command,
  declarations: readonly CliCommandDeclaration[],
  err: (text: string) => void,
  name: string,
  setExit: (code: number) => void,
): void {
  const taken = new Set(program.commands.map((c) => c.name()));
  for (const declared of declarations.filter((d) => !taken.has(d.name))) {
    program
      .command(`${declared.name}${declared.arguments ? ` ${declared.arguments}` : ""}`)
      .description(declared.description)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        err(
          `${name}: "${declared.name}" comes from a plugin that loads when it is the first word: ` +
            `run \`${name} ${declared.name} [options]\`, with every option after it.\n`,
        );
        setExit(2);
      });
  }
}
