/**
 * Subagents (`Runtime.runSubagent`): a second `Agent` on the session's hooks, tools, backend and settings,
 * with its own history and event bus. The hooks are the session's, seen through a view that names the
 * subagent (`HookBus.forAgent`), so the permission policy and command hooks judge its calls as they judge the
 * session's. Its events stay on its own bus: its messages are not the session's, and a session store or UI
 * listening for `message_end` must not take them for the conversation.
 */
import type {
  ModelInfo,
  SubagentRequest,
  SubagentResult,
  ToolCall,
  ToolContext,
  ToolResult,
  Usage,
} from "@keel/extensions-api";
import { emptyUsage } from "@keel/extensions-api";
import { EventBus, type HookBus, Agent, type AgentDeps, type ActiveTool } from "@keel/kernel";
import type { Target } from "./model-resolver.js";

/** What the session lends a subagent. */
export interface SubagentHost {
  cwd: string;
  hooks: HookBus;
  tools(): ReadonlyMap<string, ActiveTool>;
  /** The session's target, or the one `want` names. */
  target(want: SubagentRequest["model"]): Promise<Target>;
  toolContext(call: ToolCall, signal: AbortSignal, update: (partial: ToolResult) => void, agent: string): ToolContext;
  /** The parts of the session's own loop wiring a subagent shares as they are. */
  shared: Pick<AgentDeps, "toolsReady" | "toolFault" | "sessionId" | "thinking" | "limits" | "compaction">;
}

function addUsage(sum: Usage, add: Usage): Usage {
  const cost = sum.cost;
  return {
    input: sum.input + add.input,
    output: sum.output + add.output,
    cacheRead: sum.cacheRead + add.cacheRead,
    cacheWrite: sum.cacheWrite + add.cacheWrite,
    cost: {
      input: cost.input + add.cost.input,
      output: cost.output + add.cost.output,
      cacheRead: cost.cacheRead + add.cost.cacheRead,
      cacheWrite: cost.cacheWrite + add.cost.cacheWrite,
      total: cost.total + add.cost.total,
    },
  };
}

function chosenTools(all: ReadonlyMap<string, ActiveTool>, request: SubagentRequest): Map<string, ActiveTool> {
  const unknown = request.tools.filter((name) => !all.has(name));
  if (unknown.length > 0)
    throw new Error(
      `Subagent ${request.name}: no tool is registered ` +
        `as ${unknown.map((n) => `"${n}"`).join(", ")} (the session has ${[...all.keys()].join(", ") || "none"}).`,
    );
  return new Map(request.tools.map((name) => [name, all.get(name)!]));
}

export async function runSubagent(host: SubagentHost, request: SubagentRequest): Promise<SubagentResult> {
  const tools = chosenTools(host.tools(), request);
  const target = await host.target(request.model);
  const hooks = host.hooks.forAgent(request.name);
  const { limits } = host.shared;
  const agent = new Agent({
    ...host.shared,
    limits: request.maxSteps === undefined ? limits : { ...limits, maxSteps: request.maxSteps },
    bus: new EventBus(),
    hooks,
    model: async () => target,
    tools: () => tools,
    systemPrompt: (model: ModelInfo, toolNames: string[]) =>
      hooks.transform("system_prompt", request.systemPrompt, { cwd: host.cwd, model, toolNames }),
    toolContext: (call, signal, update) => host.toolContext(call, signal, update, request.name),
  });
  const abort = () => agent.abort();
  const running = agent.run(request.prompt);
  if (request.signal?.aborted) abort();
  request.signal?.addEventListener("abort", abort, { once: true });
  try {
    const result = await running;
    const usage = result.messages.reduce(
      (sum, m) => (m.role === "assistant" ? addUsage(sum, m.usage) : sum),
      emptyUsage(),
    );
    return { ...result, usage };
  } finally {
    request.signal?.removeEventListener("abort", abort);
  }
}
