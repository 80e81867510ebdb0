/**
 * Turning the model's tool calls into runnable calls. Every mistake a model can make (an unknown tool, JSON
 * that does not parse, arguments that do not match the schema, arguments cut off at the output limit) becomes
 * a clear message for the model to act on, never an exception.
 */
import {
  jsonNestingDepth,
  MAX_ARGUMENT_DEPTH,
  z,
  type AssistantMessage,
  type Message,
  type PluginRef,
  type Tool,
  type ToolCall,
} from "@keel/extensions-api";

/** A tool as the loop sees it: the name the model uses and the plugin that gave it. */
export interface ActiveTool {
  name: string;
  tool: Tool;
  owner: PluginRef;
}

export type PreparedCall =
  | { ok: true; call: ToolCall; tool: ActiveTool; input: Record<string, unknown> }
  | { ok: false; call: ToolCall; message: string; malformed: boolean };

export const CUT_OFF_MESSAGE =
  "Your reply hit the output token limit (stop reason: length), so the arguments of this call may " +
  "be cut off. Nothing was run. " +
  "Send the call again; if its arguments are large, split the work into smaller calls.";

export function prepareCall(call: ToolCall, tools: ReadonlyMap<string, ActiveTool>, cutOff: boolean): PreparedCall {
  if (cutOff) return { ok: false, call, message: CUT_OFF_MESSAGE, malformed: true };
  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys()].sort();
    const list = names.length > 0 ? `Available tools: ${names.join(", ")}.` : "No tools are available in this session.";
    return { ok: false, call, message: `Unknown tool "${call.name}". ${list}`, malformed: true };
  }
  if (jsonNestingDepth(call.arguments, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) {
    return {
      ok: false,
      call,
      malformed: true,
      message:
        `The arguments of "${call.name}" nest objects and arrays more ` +
        `than ${MAX_ARGUMENT_DEPTH} levels deep (the limit). Nothing was run. Send the call again ` +
        `with flatter arguments.`,
    };
  }
  let raw: unknown;
  try {
    raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch (error) {
    return {
      ok: false,
      call,
      malformed: true,
      message:
        `The arguments of "${call.name}" are not valid JSON (${(error as Error).message}). ` +
        `Nothing was run. Send the call again with one JSON object matching the tool's parameters.`,
    };
  }
  const parsed = validate(tool.tool, raw);
  if (!parsed.ok)
    return {
      ok: false,
      call,
      malformed: true,
      message:
        `Invalid arguments for "${call.name}": ${parsed.message}. Nothing was run. Fix the ` +
        `arguments and call it again.`,
    };
  return { ok: true, call, tool, input: parsed.input };
}

/**
 * Gives every tool call of a reply an id no other call the model sees has: a model (or a server) that repeats
 * an id, or sends none, would otherwise get one result for two calls. A repeated id gets a `_2`, `_3` … suffix.
 * `earlier` holds the ids of the history's calls (`HistoryIndex.callIds`).
 */
export function withUniqueCallIds(reply: AssistantMessage, earlier: ReadonlySet<string>): AssistantMessage {
  const calls = reply.content.filter((b): b is ToolCall => b.type === "toolCall");
  if (calls.length === 0) return reply;
  const own = new Set<string>();
  const taken = (id: string) => earlier.has(id) || own.has(id);
  let changed = false;
  const content = reply.content.map((block) => {
    if (block.type !== "toolCall") return block;
    const base = block.id || "call";
    let id = block.id || "call_1";
    for (let n = 2; taken(id); n++) id = `${base}_${n}`;
    own.add(id);
    if (id === block.id) return block;
    changed = true;
    return { ...block, id };
  });
  return changed ? { ...reply, content } : reply;
}

/** Validates input against a tool's schema; the message lists every problem by path. */
export function validate(
  tool: Tool,
  raw: unknown,
): { ok: true; input: Record<string, unknown> } | { ok: false; message: string } {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return {
      ok: false,
      message: `expected a JSON object, got ${Array.isArray(raw) ? "an array" : JSON.stringify(raw)}`,
    };
  const result = tool.parameters.safeParse(raw);
  if (result.success) return { ok: true, input: result.data as Record<string, unknown> };
  const issues = result.error.issues.map(
    (issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`,
  );
  return { ok: false, message: issues.join("; ") };
}

const schemaCache = new WeakMap<Tool, Record<string, unknown>>();

/** Sends `schema` for `tool` as it was written (a manifest's declaration), not converted from its zod schema. */
export function presetJsonSchema(tool: Tool, schema: Record<string, unknown>): void {
  schemaCache.set(tool, schema);
}

/** The JSON Schema a provider sends for a tool (input side: defaulted fields are optional). */
export function toolJsonSchema(tool: Tool): Record<string, unknown> {
  let schema = schemaCache.get(tool) ?? tool.inputSchema;
  if (!schema) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(tool.parameters, {
      io: "input",
      override: dropSafeIntegerBounds,
    }) as Record<string, unknown>;
    schema = rest;
    schemaCache.set(tool, schema);
  }
  return schema;
}

/**
 * zod writes `.int()` as bounds of ±(2^53 − 1): true, but 27 bytes of nothing for the model in every integer of
 * every request (7 in the default tools).
 */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
}
