/**
 * The `task` tool: runs a subagent on a prompt and answers with its final text only, so the parent's context
 * grows by one answer, not by the subagent's whole search. It is read-only for the loop — the call itself
 * changes nothing; every tool the subagent calls passes the permission policy on its own — so several task
 * calls of one reply run in parallel, up to `maxParallel` at once.
 */
import { defineTool, z, type Runtime, type ToolResult, type Usage } from "@keel/extensions-api";
import { modelAliases, resolveModel } from "@keel/formats/models";
import { agentTools } from "./agent-tools.ts";
import type { AgentDefinition } from "./agents.ts";
import { concurrencyLimit } from "./limit.ts";
import type { SubagentsSettings } from "./settings.ts";

export const TASK_TOOL = "task";

const TaskParams = z.object({
  description: z.string().min(1).describe("A few words for the user"),
  prompt: z.string().min(1).describe("The whole job: the subagent sees nothing else of this conversation"),
  agent: z.string().optional().describe("Default: general"),
});

export interface TaskDetails {
  agent: string;
  reason: string;
  usage: Usage;
}

export interface TaskDeps {
  settings: SubagentsSettings;
  runtime(): Runtime;
  agents(): ReadonlyMap<string, AgentDefinition>;
  /** The `modelAliases` setting, as written. */
  aliases(): unknown;
  /** Told once per agent what of it this session cannot give (tools it lacks, a model it cannot find). */
  warn(message: string): void;
}

function describe(agents: ReadonlyMap<string, AgentDefinition>): string {
  const list = [...agents.values()].map((a) => `- ${a.name}: ${a.description}`).join("\n");
  return (
    `Runs a job in a subagent with its own context and returns only its final answer: for ` +
    `searches that would fill your context and for independent jobs (several calls in one reply run ` +
    `in parallel). Agents:\n${list}`
  );
}

export function taskTool(deps: TaskDeps) {
  const limit = concurrencyLimit(deps.settings.maxParallel);
  const warned = new Set<string>();
  let seq = 0;
  return defineTool({
    name: TASK_TOOL,
    label: "Task",
    // It lists the agents, which are read when the session starts; the loop reads it for every request.
    get description() {
      return describe(deps.agents());
    },
    parameters: TaskParams,
    readOnly: true,
    // A subagent runs many requests and tools, each with its own deadline; its steps are capped instead.
    timeoutMs: Infinity,
    async execute(input, ctx): Promise<ToolResult<TaskDetails>> {
      if (ctx.agent !== undefined)
        throw new Error(`Subagents cannot start subagents (${ctx.agent} called task); do the work yourself.`);
      const agents = deps.agents();
      const agent = agents.get(input.agent ?? "general");
      if (!agent)
        throw new Error(`No agent is named "${input.agent}"; the agents are ${[...agents.keys()].join(", ")}.`);
      const runtime = deps.runtime();
      const where = agent.path ? ` (${agent.path})` : "";
      const { tools, missing } = agentTools(
        agent,
        runtime.listTools().map((t) => t.name),
        TASK_TOOL,
      );
      if (missing.length > 0 && !warned.has(`tools:${agent.name}`)) {
        warned.add(`tools:${agent.name}`);
        deps.warn(`agent "${agent.name}"${where} runs without ${missing.join(", ")}: this session has no such tool`);
      }
      const { choice, problem } = resolveModel(agent.model, {
        aliases: modelAliases(deps.aliases()),
        models: runtime.listModels(),
        provider: runtime.model?.provider,
      });
      if (problem && !warned.has(`model:${agent.name}`)) {
        warned.add(`model:${agent.name}`);
        deps.warn(`agent "${agent.name}"${where} runs on the session's model: ${problem}`);
      }
      const name = `task:${agent.name}#${++seq}`;
      const result = await limit(() =>
        runtime.runSubagent({
          name,
          systemPrompt: agent.systemPrompt,
          prompt: input.prompt,
          tools,
          ...(choice && { model: choice }),
          signal: ctx.signal,
          maxSteps: agent.maxTurns ?? deps.settings.maxSteps,
        }),
      );
      const details = { agent: name, reason: result.reason, usage: result.usage };
      if (result.reason !== "stop")
        throw new Error(
          `The subagent ${name} ended (${result.reason})` +
            (result.errorMessage ? `: ${result.errorMessage}` : "") +
            "." +
            (result.finalText ? ` Its last answer: ${result.finalText}` : ""),
        );
      return { content: result.finalText || "(the subagent gave no answer)", details };
    },
  });
}
