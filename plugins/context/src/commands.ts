/**
 * The commands the session's files make: `/skill:<name>` sends the skill's instructions with the rest of the
 * line as the task; `/<template>` sends a keel prompt template with its arguments in place; `/<command>` runs
 * a Claude Code slash command (prompt-run.ts). A skill's or command's `!` lines and `@file` references are
 * filled in first, through the permission policy. A run already going gets the text as a follow-up.
 */
import type { Runtime, SlashCommand } from "@keel/extensions-api";
import { skillText } from "@keel/formats/skills";
import type { Command } from "./claude-commands.ts";
import { expandFile, runPromptFile, type PromptFile, type RunDeps } from "./prompt-run.ts";
import type { Skill } from "./skills.ts";
import { expandTemplate, type Template } from "./templates.ts";

async function send(runtime: Runtime, text: string): Promise<void> {
  if (runtime.isRunning) runtime.followUp(text);
  else await runtime.prompt(text);
}

const withHint = (description: string, hint: string | undefined) => (hint ? `${description} ${hint}` : description);
const TAKES_ARGUMENTS = /\$(ARGUMENTS|[1-9])/;

export function skillCommand(skill: Skill, deps: RunDeps): SlashCommand {
  const file: PromptFile = {
    command: `/skill:${skill.name}`,
    path: skill.path,
    body: () => skillText(skill.path),
    allowedTools: skill.allowedTools,
    ...(skill.model && { model: skill.model }),
    trusted: skill.trusted,
    appendArguments: false,
  };
  return {
    name: file.command,
    description: withHint(skill.description, skill.argumentHint),
    async run(args, runtime) {
      const body = await file.body();
      const task = args.trim();
      const expanded = await expandFile(file, args, runtime, body);
      const text =
        `Use the skill "${skill.name}" (${skill.path}):\n\n${expanded}` +
        (task && !TAKES_ARGUMENTS.test(body) ? `\n\nTask: ${task}` : "");
      await runPromptFile(file, text, runtime, deps);
    },
  };
}

export function claudeCommand(command: Command, deps: RunDeps): SlashCommand {
  const file: PromptFile = {
    command: `/${command.name}`,
    path: command.path,
    body: async () => command.body,
    allowedTools: command.allowedTools,
    ...(command.model && { model: command.model }),
    trusted: command.trusted,
    appendArguments: true,
  };
  return {
    name: file.command,
    description: withHint(command.description, command.argumentHint),
    async run(args, runtime) {
      await runPromptFile(file, await expandFile(file, args, runtime, command.body), runtime, deps);
    },
  };
}

export function templateCommand(template: Template): SlashCommand {
  return {
    name: `/${template.name}`,
    description: template.description,
    run: (args, runtime) => send(runtime, expandTemplate(template.body, args)),
  };
}
