/**
 * context: the system prompt a coding agent needs and nothing more — a short default base, the session's facts
 * (date, folder, platform, git branch), the project's AGENTS.md files, skills by name and description — and
 * `/skill:<name>` and prompt-template commands. Everything is read once, when the session starts.
 */
import { definePlugin } from "@keel/extensions-api";
import { skillCommand, templateCommand } from "./commands.ts";
import { readSessionContext, type SessionContext } from "./session-context.ts";
import { ContextSettingsSchema } from "./settings.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

export default definePlugin({
  settings: ContextSettingsSchema,
  activate(api) {
    let context: Promise<SessionContext> | undefined;
    const load = () =>
      (context ??= readSessionContext({
        cwd: api.cwd,
        keelHome: api.keelHome,
        caps: api.settings,
        plugins: api.runtime.listPlugins(),
      }).then((read) => {
        for (const problem of read.problems) api.log.warn(problem);
        for (const skill of read.skills) api.registerCommand(skillCommand(skill));
        for (const template of read.templates) api.registerCommand(templateCommand(template));
        return read;
      }));
    api.hooks.tap("session_start", async () => void (await load()));
    // Asked before every request with the same inputs but when the tools offered change: built once for each.
    let last: { inputs: unknown[]; prompt: string } | undefined;
    api.hooks.tap("system_prompt", async (configured, info) => {
      const context = await load();
      const inputs = [configured, context, info.toolNames.join("\n"), info.cwd, ...(info.additions ?? [])];
      if (last?.inputs.length !== inputs.length || last.inputs.some((value, i) => value !== inputs[i]))
        last = { inputs, prompt: buildSystemPrompt(configured, context, info.toolNames, info.cwd, info.additions) };
      return last.prompt;
    });
  },
});
