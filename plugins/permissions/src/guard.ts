/**
 * The `tool_call` guard: decides each call with the rule engine, asks when it must (one question at a time),
 * remembers the user's grants, and publishes every decision as a `permission_decision` event. A grant "for
 * this session" is kept in the session with the decision, so it holds again after a resume (`keel -c`) and
 * follows the branch after /tree or /fork.
 */
import { z, type EventPayloads, type GuardDecision, type PluginAPI, type ToolCallEvent } from "@keel/extensions-api";
import { askUser } from "./ask.ts";
import { lockedWhy, modeLocked } from "./locked.ts";
import { decide, type Decision, type Policy } from "./decide.ts";
import { placesFor, type Places } from "./paths.ts";
import { plainCommand } from "./plain-command.ts";
import { buildPolicy } from "./policy.ts";
import { parseRules, type Rule } from "./rules.ts";
import type { Mode, PermissionsSettings } from "./settings.ts";
import { loadShellParser, parseShell } from "./shell.ts";
import { saveAllowRules } from "./user-settings.ts";

const ENTRY = "permission_decision";
/** The part of a decision entry that says the user granted patterns (older entries have none). */
const GrantEntry = z.object({ grant: z.object({ rules: z.array(z.string()) }) });

/** The patterns the user granted on the active branch, from the session's decision entries. */
function sessionGrants(api: PluginAPI): Rule[] {
  const patterns = api.session.entries(ENTRY).flatMap((e) => {
    const entry = GrantEntry.safeParse(e.data);
    return entry.success ? entry.data.grant.rules : [];
  });
  return parseRules(patterns).rules;
}

/** Allow rules a plugin granted for one run (`permission_grant`), and who granted them. */
export interface RunGrant {
  rules: readonly string[];
  origin: string;
}

/**
 * The guard; `restore` takes the session's grants again after the history was replaced. Loaded on the first
 * tool call: the policy (rules, grants, the shell parser for bash) is built then, not at startup. `grants` are
 * the run's granted rules, replaced (never changed in place) when they change.
 */
export function permissionGuard(api: PluginAPI<PermissionsSettings>, grants: () => readonly RunGrant[] = () => []) {
  let state: { policy: Policy; places: Places } | undefined;
  // Questions wait for each other: two prompts at once would confuse any UI.
  let asking: Promise<unknown> = Promise.resolve();
  // The input each allowed call had when judged, until the last guard has seen it.
  const judged = new Map<string, string>();

  /** Built on the first call: the flags are parsed, the workspace known and a resumed history in place. */
  function session() {
    if (state) return state;
    // The command line gives flags camel-cased (commander); the test kit as they are written.
    const flags = api.runtime.flags;
    const { policy, problems } = buildPolicy({
      settings: api.settings,
      flagMode: flags["permission-mode"] ?? flags.permissionMode,
      untrusted: api.untrustedSettings,
      plugins: api.runtime
        .listPlugins()
        .filter((p) => (p.state === "active" || p.state === "lazy") && p.content?.deny.length)
        .map((p) => ({ name: p.name, deny: p.content!.deny })),
    });
    for (const problem of problems) api.log.warn(problem);
    policy.session = sessionGrants(api);
    state = { policy, places: placesFor(api.runtime.cwd, api.keelHome) };
    return state;
  }

  function publish(
    call: ToolCallEvent,
    decision: "allow" | "deny",
    by: EventPayloads["permission_decision"]["by"],
    reason: string,
    asked: boolean,
    rule?: string,
    grant?: { scope: "session" | "always"; rules: readonly string[] },
  ) {
    const payload = {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      decision,
      by,
      ...(rule && { rule }),
      mode: session().policy.mode,
      reason,
      asked,
    };
    api.publish("permission_decision", payload);
    // The session keeps the decisions a person made and every refusal; an allow by the mode or a rule follows
    // from the settings and is an event only (else every tool call would add an entry).
    if (decision === "allow" && (by === "mode" || by === "rule")) return;
    try {
      api.session.append(ENTRY, grant ? { ...payload, grant } : payload);
    } catch (error) {
      api.log.warn(
        `the decision on ${call.toolName} could not be recorded in the session: ${(error as Error).message}`,
      );
    }
  }

  let granted: { from: readonly RunGrant[]; rules: Rule[] } = { from: [], rules: [] };
  /** The run's granted rules, parsed once per change; each named with its origin in decisions. */
  function runGrants(): Rule[] {
    const from = grants();
    if (from === granted.from) return granted.rules;
    // A locked mode is the distribution's alone: no command's allowed-tools widens it.
    if (modeLocked(api)) {
      for (const grant of from)
        api.log.warn(`${grant.origin}: its allowed-tools grant nothing under ${lockedWhy(api)}`);
      granted = { from, rules: [] };
      return [];
    }
    const rules = from.flatMap((grant) => {
      const parsed = parseRules(grant.rules);
      for (const problem of parsed.problems) api.log.warn(`${grant.origin}: ${problem}; that rule grants nothing`);
      return parsed.rules.map((rule) => ({ ...rule, text: `${rule.text} (allowed by ${grant.origin})` }));
    });
    granted = { from, rules };
    return rules;
  }

  async function guard(call: ToolCallEvent): Promise<GuardDecision<ToolCallEvent>> {
    const { policy: base, places } = session();
    const extra = runGrants();
    const policy = extra.length === 0 ? base : { ...base, allow: [...base.allow, ...extra] };
    let decision: Decision;
    try {
      // The grammar loads only for a line that is more than one command of plain words.
      const grammar = call.toolName === "bash" && !plainCommand(String(call.input.command ?? ""));
      const shell = grammar ? await loadShellParser() : undefined;
      // Asked only of a read-only call (the flag matters for no other): listing the tools costs on every call.
      const judged = { ...call, readOnlyIsHint: call.readOnly && readOnlyIsHint(api, call.toolName) };
      decision = decide(judged, policy, places, (command) => plainCommand(command) ?? parseShell(shell!, command));
    } catch (error) {
      const reason = `The permission check failed, so the call was not run: ${(error as Error).message}`;
      publish(call, "deny", "error", reason, false);
      return { block: true, reason };
    }
    if (decision.decision === "allow") {
      publish(call, "allow", decision.by, decision.reason, false, decision.rule);
      judged.set(call.toolCallId, JSON.stringify(call.input));
      return undefined;
    }
    if (decision.decision === "deny") {
      publish(call, "deny", "rule", decision.reason, false, decision.rule);
      return { block: true, reason: `Permission denied: ${decision.reason}.` };
    }
    const ask = decision;
    const turn = asking.then(() =>
      askUser(api.runtime, call.toolName, subjectOf(call), ask, api.runtime.flags.yes === true, modeLocked(api)),
    );
    asking = turn.catch(() => undefined);
    const answer = await turn;
    if (!answer.allow) {
      publish(call, "deny", answer.by, answer.reason, answer.by === "user", ask.rule);
      return { block: true, reason: answer.reason };
    }
    if (answer.grant) {
      const rules = parseRules(ask.suggestions).rules;
      base.session = [...base.session, ...rules];
      if (answer.grant === "always") {
        base.allow = [...base.allow, ...rules];
        try {
          saveAllowRules(api.keelHome, ask.suggestions);
        } catch (error) {
          api.runtime.notify(
            `Could not save ${ask.suggestions.join(", ")} to the user's ` +
              `settings: ${(error as Error).message}. It is allowed for this session.`,
            "warning",
          );
        }
      }
    }
    const how =
      answer.by === "yes"
        ? "approved by --yes"
        : answer.grant === "always"
          ? `always allowed by the user (${ask.suggestions.join(", ")})`
          : answer.grant === "session"
            ? "allowed by the user for this session"
            : "allowed once by the user";
    const grant = answer.grant && { scope: answer.grant, rules: ask.suggestions };
    publish(call, "allow", answer.by, `${ask.reason} — ${how}`, answer.by === "user", ask.rule, grant);
    judged.set(call.toolCallId, JSON.stringify(call.input));
    return undefined;
  }

  /** After every other guard: a call whose input a later guard rewrote is judged again, as it will run. */
  async function recheck(call: ToolCallEvent): Promise<GuardDecision<ToolCallEvent>> {
    const before = judged.get(call.toolCallId);
    judged.delete(call.toolCallId);
    if (before === JSON.stringify(call.input)) return undefined;
    const again = await guard(call);
    judged.delete(call.toolCallId);
    return again;
  }

  /** Resume, /tree, /fork: the grants are those of the new branch. */
  function restore(): void {
    if (state) state.policy.session = sessionGrants(api);
  }

  return {
    guard,
    recheck,
    restore,
    /** The mode in force. */
    mode: () => session().policy.mode,
    /** Switches the mode for the rest of the session (`/permissions <mode>`, an editor's mode picker). */
    setMode: (mode: Mode) => void (session().policy.mode = mode),
  };
}

function subjectOf(call: ToolCallEvent): string {
  if (typeof call.input.command === "string") return call.input.command;
  if (typeof call.input.path === "string") return call.input.path;
  return JSON.stringify(call.input);
}

/**
 * Whether the tool's read-only flag is only a hint: its plugin relays a remote party's claim (`readOnlyFrom`, an
 * MCP server's `readOnlyHint`), asked of the registry by the name the call used, never guessed from the name.
 */
function readOnlyIsHint(api: PluginAPI, toolName: string): boolean {
  return api.runtime.listTools().find((tool) => tool.name === toolName)?.readOnlyFrom === "remote";
}
