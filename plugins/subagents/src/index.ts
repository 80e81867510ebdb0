/**
 * subagents: the `task` tool, which runs a job in a subagent (`runtime.runSubagent`) and returns only its final
 * answer, the agent definitions it can pick from (read when the session starts), and a guard holding each
 * defined agent to the tools, patterns and permission mode its definition gives it.
 */
import { definePlugin, STAGE_POLICY } from "@keel/extensions-api";
import { refusal } from "./agent-tools.ts";
import { discoverAgents, GENERAL, type AgentDefinition } from "./agents.ts";
import { SubagentsSettingsSchema } from "./settings.ts";
import { taskTool } from "./task-tool.ts";

/** `task:scout#3` → `scout`. */
const definitionOf = (agent: string) => /^task:(.+)#\d+$/.exec(agent)?.[1];

export default definePlugin({
  settings: SubagentsSettingsSchema,
  activate(api) {
    let agents: ReadonlyMap<string, AgentDefinition> = new Map([[GENERAL.name, GENERAL]]);
    api.hooks.tap("session_start", async () => {
      const problems: string[] = [];
      agents = await discoverAgents(api.keelHome, api.cwd, api.projectTrusted, problems, api.runtime.listPlugins());
      for (const problem of problems) api.log.warn(problem);
    });
    // Before the hooks and the permission policy: a call outside the agent's own limits is refused first.
    api.hooks.tap("tool_call", { stage: STAGE_POLICY - 20 }, (call, ctx) => {
      const name = ctx.agent && definitionOf(ctx.agent);
      const agent = name ? agents.get(name) : undefined;
      const why = agent && refusal(agent, call);
      return why ? { block: true, reason: why } : undefined;
    });
    api.registerTool(
      taskTool({
        settings: api.settings,
        runtime: () => api.runtime,
        agents: () => agents,
        aliases: () => api.allSettings.modelAliases,
        warn: (message) => api.log.warn(message),
      }),
    );
  },
});
