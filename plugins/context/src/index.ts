/**
 * context: the system prompt a coding agent needs and nothing more — a short default base, the session's facts
 * (date, folder, platform, git branch), the project's AGENTS.md, CLAUDE.md and GEMINI.md files, skills by name
 * and description — and `/skill:<name>`, prompt-template and Claude Code slash commands. Everything is read
 * once, when the session starts.
 */
import { definePlugin } from "@keel/extensions-api";
import type { RunDeps } from "./prompt-run.ts";
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
        projectTrusted: api.projectTrusted,
      }).then(async (read) => {
        for (const problem of read.problems) api.log.warn(problem);
        if (read.skills.length + read.templates.length + read.commands.length === 0) return read;
        const { claudeCommand, skillCommand, templateCommand } = await import("./commands.ts");
        for (const skill of read.skills) if (skill.userInvocable) api.registerCommand(skillCommand(skill, deps));
        for (const template of read.templates) api.registerCommand(templateCommand(template));
        for (const command of read.commands) api.registerCommand(claudeCommand(command, deps));
        return read;
      }));
    const deps: RunDeps = {
      grant: (rules, origin) => api.publish("permission_grant", { rules, origin }),
      aliases: () => api.allSettings.modelAliases,
      warn: (message) => api.log.warn(message),
    };
    api.hooks.tap("session_start", async () => void (await load()));
    // Asked before every request with the same inputs but when the tools offered change: built once for each.
    let last: { inputs: unknown[]; prompt: string } | undefined;
    api.hooks.tap("system_prompt", async (configured, info) => {
      const context = await load();
      const inputs = [configured, context, info.toolNames.join("\n"), info.cwd, ...(info.additions ?? [])];
      if (last?.inputs.length !== inputs.length || last.inputs.some((value, i) => value !== inputs[i]))
        last = {
          inputs,
          prompt: buildSystemPrompt(
            configured,
            context,
            info.toolNames,
            info.cwd,
            info.additions,
            api.runtime.app.command,
          ),
        };
      return last.prompt;
    });
  },
});
