/**
 * Runs the tool calls of one reply. Consecutive read-only calls run in parallel, every other call runs alone
 * and in order; results come back in call order whatever order they finished in. Guards decide before a call
 * runs; abort reaches every running tool, and calls not yet started are answered as aborted.
 */
import { jsonNestingDepth, MAX_ARGUMENT_DEPTH, resultContent, toolCallsOf, type AssistantMessage, type ToolCall, type ToolContext, type ToolResult, type ToolResultMessage } from "@keel/extensions-api";
import type { EventBus } from "../bus/event-bus.js";
import { errorText } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";
import { prepareCall, validate, type ActiveTool, type PreparedCall } from "./tool-calls.js";

/** How long a tool may take to wind down after abort before the loop answers for it. */
const ABORT_GRACE_MS = 2_000;

export interface ToolRunnerDeps {
  bus: EventBus;
  hooks: HookBus;
  tools: ReadonlyMap<string, ActiveTool>;
  context(call: ToolCall, signal: AbortSignal, update: (partial: ToolResult) => void): ToolContext;
}

export interface BatchOutcome {
  results: ToolResultMessage[];
  /** Every call was malformed (unknown tool, bad JSON, bad arguments, cut off). */
  allMalformed: boolean;
}

export async function runToolCalls(message: AssistantMessage, deps: ToolRunnerDeps, signal: AbortSignal): Promise<BatchOutcome> {
  const calls = toolCallsOf(message);
  const prepared = calls.map((call) => prepareCall(call, deps.tools, message.stopReason === "length"));
  const results: ToolResultMessage[] = new Array(calls.length);
  let index = 0;
  while (index < prepared.length) {
    const group = [index];
    if (isReadOnly(prepared[index]!)) while (index + group.length < prepared.length && isReadOnly(prepared[index + group.length]!)) group.push(index + group.length);
    await Promise.all(group.map(async (i) => (results[i] = await runOne(prepared[i]!, deps, signal))));
    index += group.length;
  }
  return { results, allMalformed: prepared.length > 0 && prepared.every((p) => !p.ok && p.malformed) };
}

function isReadOnly(call: PreparedCall): boolean {
  return call.ok && call.tool.tool.readOnly === true;
}

async function runOne(prepared: PreparedCall, deps: ToolRunnerDeps, signal: AbortSignal): Promise<ToolResultMessage> {
  const { call } = prepared;
  const start = (input: unknown) => deps.bus.emit("tool_execution_start", { toolCallId: call.id, toolName: call.name, input });
  const finish = async (result: ToolResultMessage, input: unknown) => {
    const final = await deps.hooks.transform("tool_result", result, { toolCall: call, input }, signal);
    deps.bus.emit("tool_execution_end", { toolCallId: call.id, toolName: call.name, result: final, isError: final.isError });
    return final;
  };

  if (!prepared.ok) {
    start(safeParse(call.arguments));
    return finish(textResult(call, prepared.message, true), undefined);
  }
  if (signal.aborted) {
    start(prepared.input);
    return finish(textResult(call, "Aborted by the user before this call ran.", true), prepared.input);
  }

  const decision = await deps.hooks.guard("tool_call", { toolCallId: call.id, toolName: call.name, input: prepared.input, readOnly: prepared.tool.tool.readOnly === true }, signal);
  let input = prepared.input;
  if (decision.blocked) {
    start(input);
    return finish(textResult(call, `Blocked by ${decision.by}: ${decision.reason}`, true), input);
  }
  if (decision.event.input !== input) {
    const revalidated = validate(prepared.tool.tool, decision.event.input);
    if (!revalidated.ok) {
      start(decision.event.input);
      return finish(textResult(call, `A tool_call guard rewrote the arguments into invalid ones (${revalidated.message}); nothing was run.`, true), decision.event.input);
    }
    input = revalidated.input;
  }

  start(input);
  const update = (partial: ToolResult) => deps.bus.emit("tool_execution_update", { toolCallId: call.id, toolName: call.name, partial });
  const ctx = deps.context(call, signal, update);
  let result: ToolResultMessage;
  try {
    const output = await untilAbortedWithGrace(prepared.tool.tool.execute(input, ctx), signal);
    result = output === ABANDONED ? textResult(call, "Aborted by the user; the tool did not stop in time and its output was discarded.", true) : toResultMessage(call, output);
  } catch (error) {
    const text = signal.aborted ? `Aborted by the user: ${errorText(error)}` : `Error: ${errorText(error)}`;
    result = textResult(call, text, true);
  }
  return finish(result, input);
}

const ABANDONED = Symbol("abandoned");

/** Waits for the tool; after abort, gives it a grace period to return what it has, then stops waiting. */
function untilAbortedWithGrace<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABANDONED> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => (timer = setTimeout(() => resolve(ABANDONED), ABORT_GRACE_MS));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      if (timer) clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    });
  });
}

/** Tolerates a tool that returns a bare string; anything else without content is the tool's bug, said plainly. */
function toResultMessage(call: ToolCall, output: unknown): ToolResultMessage {
  if (typeof output === "string") return textResult(call, output, false);
  const result = output as ToolResult | undefined;
  if (!result || (typeof result.content !== "string" && !Array.isArray(result.content))) {
    return textResult(call, `The tool "${call.name}" returned no content (a bug in the tool: execute must resolve { content }).`, true);
  }
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, content: resultContent(result.content), details: result.details, isError: result.isError === true, timestamp: Date.now() };
}

function textResult(call: ToolCall, text: string, isError: boolean): ToolResultMessage {
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text }], isError, timestamp: Date.now() };
}

/** The arguments for UIs; text nested past the limit stays text, so no observer walks it recursively. */
function safeParse(text: string): unknown {
  if (jsonNestingDepth(text, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
