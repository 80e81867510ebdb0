/**
 * Runs the tool calls of one reply. Consecutive read-only calls run in parallel, every other call runs alone
 * and in order; results come back in call order whatever order they finished in. Guards decide before a call
 * runs; abort reaches every running tool, and calls not yet started are answered as aborted. Each call has a
 * deadline, and its own signal derived from the run's (so twenty parallel calls add no listeners to one signal).
 */
import {
  jsonNestingDepth,
  MAX_ARGUMENT_DEPTH,
  toolCallsOf,
  type AssistantMessage,
  type ToolCall,
  type ToolContext,
  type ToolResult,
  type ToolResultMessage,
} from "@keel/extensions-api";
import { childController } from "@keel/extensions-api/sleep";
import type { EventBus } from "../bus/event-bus.js";
import { errorText } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";
import { prepareCall, validate, type ActiveTool, type PreparedCall } from "./tool-calls.js";
import { resultProblem, textResult, toResultMessage, type ToolFault } from "./tool-result.js";

/** How long a tool may take to wind down after abort before the loop answers for it. */
const ABORT_GRACE_MS = 2_000;

export interface ToolRunnerDeps {
  bus: EventBus;
  hooks: HookBus;
  tools: ReadonlyMap<string, ActiveTool>;
  context(call: ToolCall, signal: AbortSignal, update: (partial: ToolResult) => void): ToolContext;
  /** Milliseconds a call of this tool may run before the loop stops it and answers for it. */
  deadlineMs(tool: ActiveTool): number;
  /** A tool broke its contract (a bad result, a missed deadline): tell the user, naming its plugin. */
  fault: ToolFault;
}

export interface BatchOutcome {
  results: ToolResultMessage[];
  /** Every call was malformed (unknown tool, bad JSON, bad arguments, cut off). */
  allMalformed: boolean;
}

export async function runToolCalls(
  message: AssistantMessage,
  deps: ToolRunnerDeps,
  signal: AbortSignal,
): Promise<BatchOutcome> {
  const calls = toolCallsOf(message);
  const prepared = calls.map((call) => prepareCall(call, deps.tools, message.stopReason === "length"));
  const results: ToolResultMessage[] = new Array(calls.length);
  let index = 0;
  while (index < prepared.length) {
    const group = [index];
    if (isReadOnly(prepared[index]!))
      while (index + group.length < prepared.length && isReadOnly(prepared[index + group.length]!))
        group.push(index + group.length);
    await Promise.all(group.map(async (i) => (results[i] = await runOne(prepared[i]!, deps, signal))));
    index += group.length;
  }
  return { results, allMalformed: prepared.length > 0 && prepared.every((p) => !p.ok && p.malformed) };
}

/**
 * One call outside a reply (`Runtime.runTool`: a command's `!` line): prepared, guarded, run and transformed
 * exactly as one of the model's calls would be.
 */
export function runSingleCall(call: ToolCall, deps: ToolRunnerDeps, signal: AbortSignal): Promise<ToolResultMessage> {
  return runOne(prepareCall(call, deps.tools, false), deps, signal);
}

function isReadOnly(call: PreparedCall): boolean {
  return call.ok && call.tool.tool.readOnly === true;
}

/**
 * One call on the run's signal. Nothing listens on it for long: guards and transforms get a signal of their own
 * when they read one (hooks/timeout.ts), and the tool gets `execute`'s, which also carries its deadline; each
 * removes its listener when done, so parallel calls leave none behind on the run's signal.
 */
async function runOne(prepared: PreparedCall, deps: ToolRunnerDeps, signal: AbortSignal): Promise<ToolResultMessage> {
  const { call } = prepared;
  const start = (input: unknown) =>
    deps.bus.emit("tool_execution_start", { toolCallId: call.id, toolName: call.name, input });
  const finish = async (result: ToolResultMessage, input: unknown) => {
    const final = await deps.hooks.transform("tool_result", result, { toolCall: call, input }, signal);
    deps.bus.emit("tool_execution_end", {
      toolCallId: call.id,
      toolName: call.name,
      result: final,
      isError: final.isError,
    });
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

  const decision = await deps.hooks.guard(
    "tool_call",
    { toolCallId: call.id, toolName: call.name, input: prepared.input, readOnly: prepared.tool.tool.readOnly === true },
    signal,
  );
  let input = prepared.input;
  if (decision.blocked) {
    start(input);
    return finish(textResult(call, `Blocked by ${decision.by}: ${decision.reason}`, true), input);
  }
  if (decision.event.input !== input) {
    const revalidated = validate(prepared.tool.tool, decision.event.input);
    if (!revalidated.ok) {
      start(decision.event.input);
      return finish(
        textResult(
          call,
          `A tool_call guard rewrote the arguments into invalid ones (${revalidated.message}); nothing was run.`,
          true,
        ),
        decision.event.input,
      );
    }
    input = revalidated.input;
  }

  start(input);
  return finish(await execute(prepared.tool, call, input, deps, signal), input);
}

/** Runs the tool itself under its deadline; whatever it does, the call ends with one result. */
async function execute(
  active: ActiveTool,
  call: ToolCall,
  input: Record<string, unknown>,
  deps: ToolRunnerDeps,
  callSignal: AbortSignal,
): Promise<ToolResultMessage> {
  const ms = deps.deadlineMs(active);
  // Aborts with the call, or on its own at the deadline.
  const deadline = childController(callSignal);
  const { signal } = deadline.controller;
  // A ref'd timer: a tool that never settles must not leave Node with nothing to wait for (it would exit 0).
  const timer = Number.isFinite(ms)
    ? setTimeout(
        () => deadline.controller.abort(new Error(`The tool "${call.name}" ran past its deadline of ${ms} ms.`)),
        ms,
      )
    : undefined;
  const late = () => !callSignal.aborted && signal.aborted;
  let warned = false;
  // A progress update reaches UIs directly: one keel cannot use is dropped (and reported once per call).
  const update = (partial: ToolResult) => {
    const problem = resultProblem(partial);
    if (!problem) return deps.bus.emit("tool_execution_update", { toolCallId: call.id, toolName: call.name, partial });
    if (!warned)
      deps.fault(
        active.owner,
        `tool "${call.name}" sent a progress update keel cannot use (it ${problem}); such updates are not shown.`,
        "warning",
      );
    warned = true;
  };
  try {
    const work = Promise.resolve().then(() => active.tool.execute(input, deps.context(call, signal, update)));
    const output = await untilAbortedWithGrace(work, signal);
    if (output !== ABANDONED) return toResultMessage(call, output, active.owner, deps.fault);
    if (!late())
      return textResult(call, "Aborted by the user; the tool did not stop in time and its output was discarded.", true);
    deps.fault(
      active.owner,
      `tool "${call.name}" did not finish within ${ms} ms (its deadline) and ignored the signal to ` +
        `stop; the model was told it failed.`,
      "warning",
    );
    return textResult(
      call,
      `The tool "${call.name}" did not finish within ${ms} ms (its deadline) and was abandoned; its ` +
        `output was discarded. ${DEADLINE_HINT(call.name)}`,
      true,
    );
  } catch (error) {
    const text = late()
      ? `Stopped at its deadline (${ms} ms): ${errorText(error)}`
      : signal.aborted
        ? `Aborted by the user: ${errorText(error)}`
        : `Error: ${errorText(error)}`;
    return textResult(call, text, true);
  } finally {
    clearTimeout(timer);
    deadline.release();
  }
}

const DEADLINE_HINT = (name: string) =>
  `The user can allow longer with the setting "loop": { "toolTimeouts": { "${name}": <milliseconds> } }.`;

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

/** The arguments for UIs; text nested past the limit stays text, so no observer walks it recursively. */
function safeParse(text: string): unknown {
  if (jsonNestingDepth(text, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
