/**
 * What each transform hook's handlers must return. A handler's return value replaces the hook's value for
 * every later handler and for the kernel, so one that returns `null` or the wrong shape would break whoever
 * reads it next (a session store, a provider); the hook bus skips such a value and reports it like a throw.
 */
import type { HOOKS, HookName } from "@keel/extensions-api";
import { assistantMessageProblem, messagesProblem, shown, toolResultProblem } from "./message-checks.js";

type TransformHook = { [K in HookName]: (typeof HOOKS)[K]["kind"] extends "transform" ? K : never }[HookName];

/** What is wrong with a transform's return value, or undefined when it has the hook's type. */
export const TRANSFORM_CHECKS: Record<TransformHook, (value: unknown) => string | undefined> = {
  system_prompt: (value) => (typeof value === "string" ? undefined : `expected a string, got ${shown(value)}`),
  context: messagesProblem,
  provider_request: (value) => {
    const ok =
      typeof value === "object" &&
      value !== null &&
      "payload" in value &&
      typeof (value as { headers?: unknown }).headers === "object";
    return ok ? undefined : `expected { payload, headers }, got ${shown(value)}`;
  },
  tool_result: toolResultProblem,
  message_end: assistantMessageProblem,
};

export function transformProblem(hook: HookName, value: unknown): string | undefined {
  return (TRANSFORM_CHECKS as Partial<Record<HookName, (value: unknown) => string | undefined>>)[hook]?.(value);
}
