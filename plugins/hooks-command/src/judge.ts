/**
 * `prompt` and `agent` hooks: instead of a script, a model judges the event — the session's model in one
 * request (`prompt`), or a subagent that may look around with the read-only tools (`agent`). The hook's text
 * gets the event JSON in place of `$ARGUMENTS` (after it, when it has none); the answer is Claude Code's
 * `{ "ok": true }` or `{ "ok": false, "reason": "…" }` (the older `decision: approve|block` reads too), which
 * becomes a run as a command's would end: exit 0, or exit 2 with the reason.
 */
import { textOf, userMessage, type ModelInfo, type Runtime } from "@keel/extensions-api";
import { modelAliases, resolveModel } from "@keel/formats/models";
import type { ModelHook } from "./config.ts";
import type { HookRun } from "./spawn-hook.ts";

const JUDGE =
  "You check one step of a coding agent's run for a hook its user configured. The hook's instructions and the " +
  'step, as JSON, follow. Answer with one JSON object and nothing else: {"ok": true} to let the step go on, or ' +
  '{"ok": false, "reason": "<what is wrong, for the agent to read>"} to stop it.';
/** What an `agent` hook's subagent may use: it looks, it changes nothing. */
const LOOKING = ["read", "grep", "find", "ls"];

const ran = (code: number | null, stderr = "", extra: Partial<HookRun> = {}): HookRun => ({
  code,
  stdout: "",
  stderr,
  timedOut: false,
  ...extra,
});

/** The answer as a run: 0 for ok, 2 with the reason for not ok, 1 when it says neither. */
export function verdict(answer: string): HookRun {
  let parsed: { ok?: unknown; decision?: unknown; reason?: unknown } | undefined;
  try {
    parsed = JSON.parse(/\{[\s\S]*\}/.exec(answer)?.[0] ?? "");
  } catch {
    parsed = undefined;
  }
  if (parsed?.ok === true || parsed?.decision === "approve") return ran(0);
  if (parsed?.ok === false || parsed?.decision === "block")
    return ran(2, typeof parsed.reason === "string" && parsed.reason ? parsed.reason : "the hook's model said no");
  return ran(1, `the model did not answer {"ok": …}: ${JSON.stringify(answer.slice(0, 200))}`);
}

/** The model a hook names (an alias, `provider/model`), else the session's; `warn` hears why not. */
function modelFor(
  hook: ModelHook,
  runtime: Runtime,
  aliases: unknown,
  warn: (m: string) => void,
): ModelInfo | undefined {
  const models = runtime.listModels();
  const { choice, problem } = resolveModel(hook.model, {
    aliases: modelAliases(aliases),
    models,
    provider: runtime.model?.provider,
  });
  if (problem) warn(`a ${hook.type} hook's model: ${problem}; the session's model judges instead`);
  return choice && models.find((m) => m.provider === choice.provider && m.id === choice.model);
}

export function judgeWith(runtime: () => Runtime, aliases: () => unknown, warn: (message: string) => void) {
  return async (hook: ModelHook, input: string, timeoutMs: number, signal: AbortSignal): Promise<HookRun> => {
    const text = hook.prompt.includes("$ARGUMENTS")
      ? hook.prompt.replaceAll("$ARGUMENTS", input)
      : `${hook.prompt}\n\n${input}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const deadline = AbortSignal.any([signal, timeout]);
    const rt = runtime();
    const model = modelFor(hook, rt, aliases(), warn);
    try {
      if (hook.type === "prompt") {
        const reply = await rt.complete({
          systemPrompt: JUDGE,
          messages: [userMessage(text)],
          model,
          signal: deadline,
        });
        if (timeout.aborted) return ran(null, "", { timedOut: true });
        if (reply.stopReason === "error" || reply.stopReason === "aborted")
          return ran(null, "", { failure: reply.errorMessage ?? reply.stopReason });
        return verdict(textOf(reply));
      }
      const tools = LOOKING.filter((name) => rt.listTools().some((t) => t.name === name));
      const result = await rt.runSubagent({
        name: "hook:agent",
        systemPrompt: JUDGE,
        prompt: text,
        tools,
        ...(model && { model: { provider: model.provider, model: model.id } }),
        signal: deadline,
      });
      if (timeout.aborted) return ran(null, "", { timedOut: true });
      if (result.reason !== "stop") return ran(null, "", { failure: result.errorMessage ?? result.reason });
      return verdict(result.finalText);
    } catch (error) {
      return ran(null, "", { failure: (error as Error).message });
    }
  };
}
