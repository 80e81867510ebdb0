/**
 * subagents: the `task` tool, which runs a job in a subagent (`runtime.runSubagent`) and returns only its final
 * answer, and the agent definitions it can pick from (read when the session starts).
 */
import { definePlugin } from "@keel/extensions-api";
import { discoverAgents, GENERAL, type AgentDefinition } from "./agents.ts";
import { SubagentsSettingsSchema } from "./settings.ts";
import { taskTool } from "./task-tool.ts";

export default definePlugin({
  settings: SubagentsSettingsSchema,
  activate(api) {
    let agents: ReadonlyMap<string, AgentDefinition> = new Map([[GENERAL.name, GENERAL]]);
    api.hooks.tap("session_start", async () => {
      const problems: string[] = [];
      agents = await discoverAgents(api.keelHome, api.cwd, api.projectTrusted, problems);
      for (const problem of problems) api.log.warn(problem);
    });
    api.registerTool(taskTool({ settings: api.settings, runtime: () => api.runtime, agents: () => agents }));
  },
});
