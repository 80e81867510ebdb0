/**
 * The session tree as text, and how `/tree`, `/fork` and `/label` name an entry: by id, unique id prefix, or
 * label. Outline view (the default) shows what a person reads (prompts, replies, compactions, summaries,
 * labels, branch points); `all` shows every entry.
 */
import { textOf, toolCallsOf } from "@keel/extensions-api";
import type { Entry } from "./format.ts";
import type { LoadedSession } from "./load.ts";

const PREVIEW = 72;

/** Current labels by entry id (a later label entry replaces an earlier one; a null label removes it). */
export function labelsOf(entries: readonly Entry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    if (e.label === null) labels.delete(e.targetId);
    else labels.set(e.targetId, e.label);
  }
  return labels;
}

/** Finds the entry `ref` names, or throws saying why not. */
export function resolveEntry(session: Pick<LoadedSession, "entries" | "byId">, ref: string): Entry {
  const exact = session.byId.get(ref);
  if (exact) return exact;
  for (const [id, label] of labelsOf(session.entries)) if (label === ref) return session.byId.get(id)!;
  const prefixed = session.entries.filter((e) => e.id.startsWith(ref));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1) throw new Error(`"${ref}" matches ${prefixed.length} entries; give more of the id`);
  throw new Error(`no entry or label "${ref}" in this session; /tree lists them`);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW - 1)}…` : flat;
}

/** One line describing an entry. */
export function describeEntry(e: Entry): string {
  switch (e.type) {
    case "message": {
      const m = e.message;
      if (m.role === "user") return `${m.kind ?? "user"}: ${oneLine(textOf(m))}`;
      if (m.role === "toolResult")
        return `${m.isError ? "tool error" : "tool result"} ${m.toolName}: ${oneLine(textOf(m))}`;
      const calls = toolCallsOf(m).map((c) => c.name);
      const text = oneLine(textOf(m));
      const failed = m.stopReason === "error" || m.stopReason === "aborted" ? ` [${m.stopReason}]` : "";
      return `assistant${failed}: ${text}${calls.length ? `${text ? " " : ""}→ ${calls.join(", ")}` : ""}`;
    }
    case "compaction":
      return `compaction (${e.tokensBefore.toLocaleString("en-US")} tokens): ${oneLine(e.summary)}`;
    case "branch_summary":
      return `branch summary: ${oneLine(e.summary)}`;
    case "model_change":
      return `model → ${e.provider}/${e.model}`;
    case "label":
      return e.label === null ? `unlabel ${e.targetId}` : `label ${e.targetId} "${e.label}"`;
    case "custom":
      return `custom ${e.plugin ? `${e.plugin} ` : ""}${e.customType}`;
    case "custom_message":
      return `${e.customType}: ${oneLine(e.content)}`;
  }
}

function isOutline(e: Entry): boolean {
  if (e.type === "message")
    return e.message.role === "user" || (e.message.role === "assistant" && textOf(e.message).trim().length > 0);
  return e.type === "compaction" || e.type === "branch_summary" || e.type === "custom_message";
}

/**
 * Renders the tree. Linear runs stay at one indentation; each branch point indents its children with
 * ├─ / └─. `*` marks the active branch, `← leaf` the current position.
 */
export function renderTree(
  session: Pick<LoadedSession, "entries">,
  leafId: string | null,
  options: { all?: boolean } = {},
): string {
  const children = new Map<string | null, Entry[]>();
  for (const e of session.entries) {
    const list = children.get(e.parentId) ?? [];
    list.push(e);
    children.set(e.parentId, list);
  }
  const active = new Set<string>();
  const byId = new Map(session.entries.map((e) => [e.id, e]));
  for (let id = leafId; id !== null && !active.has(id); id = byId.get(id)?.parentId ?? null) active.add(id);
  const labels = labelsOf(session.entries);

  const lines: string[] = [];
  const stack: { entry: Entry; first: string; rest: string }[] = [];
  const pushKids = (kids: Entry[], first: string, rest: string) => {
    if (kids.length === 1) stack.push({ entry: kids[0]!, first, rest });
    else
      for (let i = kids.length - 1; i >= 0; i--) {
        const last = i === kids.length - 1;
        stack.push({ entry: kids[i]!, first: rest + (last ? "└─ " : "├─ "), rest: rest + (last ? "   " : "│  ") });
      }
  };
  pushKids(children.get(null) ?? [], "", "");
  while (stack.length > 0) {
    const { entry, first, rest } = stack.pop()!;
    const kids = children.get(entry.id) ?? [];
    const shown = options.all || isOutline(entry) || kids.length > 1 || labels.has(entry.id) || entry.id === leafId;
    if (shown) {
      const label = labels.has(entry.id) ? ` [${labels.get(entry.id)}]` : "";
      const mark = active.has(entry.id) ? "*" : " ";
      lines.push(`${mark} ${first}${entry.id}${label} ${describeEntry(entry)}${entry.id === leafId ? "  ← leaf" : ""}`);
      pushKids(kids, rest, rest);
    } else pushKids(kids, first, rest);
  }
  return lines.join("\n");
}
