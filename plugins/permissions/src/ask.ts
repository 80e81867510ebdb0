/**
 * Asking the user about a call the policy would not allow on its own, through whichever UI answers
 * `ui_request`: allow once, allow for this session, always allow (a rule saved to the user's settings), or deny
 * with a reason the model sees. `--yes` answers yes without asking, except for what cannot be undone and for
 * protected files; with nobody to ask, the answer is no, with a reason saying how the user can allow it.
 */
import type { Runtime } from "@keel/extensions-api";
import type { Decision } from "./decide.ts";

export type AskDecision = Extract<Decision, { decision: "ask" }>;

export type Answer =
  | { allow: true; by: "user" | "yes"; grant?: "session" | "always" }
  | { allow: false; by: "user" | "no_ui"; reason: string };

const ONCE = "Allow once";
const SESSION = "Allow for this session";
const DENY = "Deny";

/** Asks about one call. `subject` is what the question shows (the command, the path). */
export async function askUser(
  runtime: Runtime,
  toolName: string,
  subject: string,
  decision: AskDecision,
  yes: boolean,
  locked = false,
): Promise<Answer> {
  const mustAsk = decision.irreversible || decision.protected;
  if (yes && !mustAsk) return { allow: true, by: "yes" };
  const rules = decision.suggestions.join(", ");
  const session = rules ? `${SESSION} (${rules})` : undefined;
  // Under a locked mode a saved allow rule would be ignored (the lock holds `allow` too), so it is not offered.
  const always = rules && !decision.protected && !locked ? `Always allow ${rules}` : undefined;
  const options = [ONCE, ...(session ? [session] : []), ...(always ? [always] : []), DENY];
  const warning = decision.irreversible ? " It cannot be undone." : "";
  const answer = await runtime.ask({
    kind: "select",
    title: `Allow ${toolName} ${subject}? (${decision.reason})${warning}`,
    options,
    // Under a locked mode the person decides, through the distribution's own UI: no other plugin answers for them.
    ...(locked && { distributionOnly: true }),
  });
  if (!answer) return { allow: false, by: "no_ui", reason: noUiReason(decision, yes) };
  const value =
    answer.kind === "select"
      ? answer.value
      : answer.kind === "confirm"
        ? answer.confirmed
          ? ONCE
          : DENY
        : answer.value;
  if (value === ONCE) return { allow: true, by: "user" };
  if (session && value === session) return { allow: true, by: "user", grant: "session" };
  if (always && value === always) return { allow: true, by: "user", grant: "always" };
  const why = await runtime.ask({
    kind: "input",
    title: "Why not? The model sees your answer (leave it empty to give no reason)",
  });
  const text = why?.kind === "input" ? why.value.trim() : "";
  return {
    allow: false,
    by: "user",
    reason: text ? `The user denied this call: ${text}` : "The user denied this call.",
  };
}

function noUiReason(decision: AskDecision, yes: boolean): string {
  const rule = decision.suggestions[0];
  const ways = decision.irreversible || decision.protected ? [] : ["run keel with --yes"];
  // An ask rule holds over allow rules and in every mode: only changing it helps.
  if (decision.rule) ways.push(`take "${decision.rule}" out of permissions.ask in the settings`);
  else {
    if (rule && !decision.protected)
      ways.push(`add "${rule}" to permissions.allow in the user's settings (~/.keel/settings.json)`);
    ways.push("run with --permission-mode full");
  }
  const unanswerable = yes
    ? "--yes does not approve it, and nobody can be asked here"
    : "nobody can approve it here (no interactive UI)";
  return (
    `Permission needed: ${decision.reason}. It was not run: ${unanswerable}. To allow it, the ` +
    `user can ${ways.join(", or ")}.`
  );
}
