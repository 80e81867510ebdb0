/** What the loop's tool calls see: the tools in effect and the context each call runs with. */
import type { Operations, Tool, ToolCall, ToolContext, ToolResult } from "@keel/extensions-api";
import type { Entry } from "../host/registry.js";
import type { ActiveTool } from "@keel/kernel";

/** The registered tools, less those `enabled` (the `tools.enabled` setting, when set) leaves out. */
export function activeTools(
  registered: readonly Entry<Tool>[],
  enabled: readonly string[] | undefined,
): Map<string, ActiveTool> {
  const kept = enabled && new Set(enabled);
  return new Map(
    registered
      .filter((e) => !kept || kept.has(e.name))
      .map((e) => [e.name, { name: e.name, tool: e.item, owner: { name: e.owner.name, version: e.owner.version } }]),
  );
}

/** The tools in effect, asked for every request and call: rebuilt only once a tool came or went or the list changed. */
export class ToolsInEffect {
  private memo:
    | { registered: readonly Entry<Tool>[]; enabled: readonly string[] | undefined; tools: Map<string, ActiveTool> }
    | undefined;

  /** `enabled` reads the `tools.enabled` setting in effect. */
  constructor(
    private readonly registered: () => readonly Entry<Tool>[],
    private readonly enabled: () => readonly string[] | undefined,
  ) {}

  get(): Map<string, ActiveTool> {
    const registered = this.registered();
    const enabled = this.enabled();
    if (this.memo?.registered === registered && this.memo.enabled === enabled) return this.memo.tools;
    const tools = activeTools(registered, enabled);
    this.memo = { registered, enabled, tools };
    return tools;
  }
}

/** Where a call runs: the session's folder, its data folder and the operations backend, read when used. */
export interface CallPlace {
  cwd: string;
  dataDir(): string;
  ops(): Operations;
}

/** The context of one tool call (`agent` names the subagent making it, if any). */
export function toolContext(
  call: ToolCall,
  signal: AbortSignal,
  update: (partial: ToolResult) => void,
  agent: string | undefined,
  place: CallPlace,
): ToolContext {
  return {
    ...(agent === undefined ? {} : { agent }),
    signal,
    toolCallId: call.id,
    cwd: place.cwd,
    update,
    get dataDir() {
      return place.dataDir();
    },
    get ops(): Operations {
      return place.ops();
    },
  };
}
