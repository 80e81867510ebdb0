/**
 * The commands the session's files make: `/skill:<name>` sends the skill's instructions with the rest of the
 * line as the task; `/<template>` sends the template with its arguments in place. A run already going gets
 * the text as a follow-up.
 */
import type { Runtime, SlashCommand } from "@keel/extensions-api";
import { skillBody, type Skill } from "./skills.ts";
import { expandTemplate, type Template } from "./templates.ts";

async function send(runtime: Runtime, text: string): Promise<void> {
  if (runtime.isRunning) runtime.followUp(text);
  else await runtime.prompt(text);
}

export function skillCommand(skill: Skill): SlashCommand {
  return {
    name: `/skill:${skill.name}`,
    description: skill.description,
    async run(args, runtime) {
      const body = await skillBody(skill);
      const task = args.trim();
      await send(
        runtime,
        `Use the skill "${skill.name}" (${skill.path}):\n\n${body}${task ? `\n\nTask: ${task}` : ""}`,
      );
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
