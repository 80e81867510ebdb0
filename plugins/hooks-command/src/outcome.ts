/**
 * Reads what a hook said, with Claude Code's semantics: exit 0 continues (its stdout may be JSON output, or
 * for UserPromptSubmit and SessionStart plain text added as context), exit 2 blocks with stderr as the reason,
 * any other exit is a problem reported while the run continues. Several hooks of one event combine: a block
 * or a deny from any of them wins over an ask, an ask over an allow.
 */
import { z } from "@keel/extensions-api";
import type { HookEventName } from "./events.ts";
import type { HookRun } from "./spawn-hook.ts";

// A wire boundary: everything is optional and unknown fields are kept out of the way, not refused.
const OutputSchema = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(["approve", "block", "allow", "deny"]).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .object({
        permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

export type Permission = "allow" | "deny" | "ask";

/** What the hooks of one event decided, combined. */
export interface Outcome {
  /** Exit 2 or `decision: "block"`: the reason (the model sees it where the event allows). */
  block?: string;
  permission?: Permission;
  permissionReason?: string;
  updatedInput?: Record<string, unknown>;
  /** `additionalContext`, or plain stdout where Claude Code adds it to the context. */
  context?: string;
  /** `continue: false`: the run stops; `stopReason` says why to the user. */
  stop?: string;
  /** Shown to the user: `systemMessage` and the stderr of hooks that did not block. */
  notices: string[];
  /** Hooks that failed without blocking (exit 1, a timeout, bad JSON): reported, the run goes on. */
  problems: string[];
}

const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "SessionStart"]);
const RANK: Record<Permission, number> = { allow: 0, ask: 1, deny: 2 };

/** One hook's run, as an outcome; `label` names the hook in problems. */
export function readRun(event: HookEventName, label: string, run: HookRun): Outcome {
  const outcome: Outcome = { notices: [], problems: [] };
  if (run.failure) outcome.problems.push(`${label} could not run: ${run.failure}`);
  else if (run.timedOut) outcome.problems.push(`${label} timed out and was killed with its child processes`);
  else if (run.code === 2) outcome.block = run.stderr.trim() || `blocked by ${label} (exit 2, no message on stderr)`;
  else if (run.code !== 0)
    outcome.problems.push(`${label} exited ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ""}`);
  else readStdout(event, label, run.stdout, outcome);
  return outcome;
}

function readStdout(event: HookEventName, label: string, stdout: string, outcome: Outcome): void {
  const text = stdout.trim();
  if (!text.startsWith("{")) {
    if (text && PLAIN_STDOUT_IS_CONTEXT.has(event)) outcome.context = text;
    return;
  }
  let parsed: z.output<typeof OutputSchema>;
  try {
    const result = OutputSchema.safeParse(JSON.parse(text));
    if (!result.success) throw new Error(z.prettifyError(result.error).replace(/\n/g, " "));
    parsed = result.data;
  } catch (error) {
    outcome.problems.push(`${label} printed JSON keel cannot read (${(error as Error).message}); ignored`);
    return;
  }
  const specific = parsed.hookSpecificOutput;
  if (parsed.continue === false) outcome.stop = parsed.stopReason ?? `stopped by ${label}`;
  if (parsed.systemMessage) outcome.notices.push(parsed.systemMessage);
  if (specific?.permissionDecision) {
    outcome.permission = specific.permissionDecision;
    outcome.permissionReason = specific.permissionDecisionReason;
  } else if (parsed.decision === "approve" || parsed.decision === "allow") {
    outcome.permission = "allow";
    outcome.permissionReason = parsed.reason;
  } else if (parsed.decision === "deny" || parsed.decision === "block") {
    // The older PreToolUse form; for the other events `block` is their way to object.
    if (event === "PreToolUse") {
      outcome.permission = "deny";
      outcome.permissionReason = parsed.reason;
    } else outcome.block = parsed.reason ?? `blocked by ${label}`;
  }
  if (specific?.updatedInput) outcome.updatedInput = specific.updatedInput;
  if (specific?.additionalContext) outcome.context = specific.additionalContext;
}

/** Combines the outcomes of the hooks of one event that ran together. */
export function combine(outcomes: Outcome[]): Outcome {
  const all: Outcome = { notices: [], problems: [] };
  const join = (a: string | undefined, b: string | undefined) => (a && b ? `${a}\n${b}` : (a ?? b));
  for (const o of outcomes) {
    all.block = join(all.block, o.block);
    all.context = join(all.context, o.context);
    all.stop = join(all.stop, o.stop);
    all.notices.push(...o.notices);
    all.problems.push(...o.problems);
    if (o.updatedInput) all.updatedInput = { ...all.updatedInput, ...o.updatedInput };
    if (o.permission && (!all.permission || RANK[o.permission] > RANK[all.permission])) {
      all.permission = o.permission;
      all.permissionReason = o.permissionReason;
    } else if (o.permission && o.permission === all.permission)
      all.permissionReason = join(all.permissionReason, o.permissionReason);
  }
  return all;
}
