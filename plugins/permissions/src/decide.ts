/**
 * The rule engine: one tool call and the policy in, allow / ask / deny out, with no I/O but path lookups. A
 * call is split into items — each command of a bash line, each file its output is redirected to, or the one
 * path or subject of another tool — and each item is judged in this order, the first that speaks deciding:
 *
 *   deny rule → deny · a grant the user gave this session → allow · ask rule → ask ·
 *   a protected file (.git, shell start-up files, ~/.ssh, keel's settings) → ask unless mode `full` ·
 *   allow rule → allow · the mode: `full` allows; `auto` allows read-only tools, edits inside the workspace and
 *   known-safe commands; `ask` allows read-only tools only; anything else asks.
 *
 * The call is denied when any item is, asks when any item asks, and is allowed only when every item is.
 * Nothing in the conversation (tool output, files, summaries) reaches this function: only the call's input.
 */
import { classify, unwrap } from "./classify.ts";
import { folderPattern, isDevice, protectedReason, resolvePath, type Places, type ResolvedPath } from "./paths.ts";
import { firstMatch, normaliseCommand, PATH_TOOLS, type Rule, type Subject } from "./rules.ts";
import type { Mode } from "./settings.ts";
import type { ParsedShell, ShellCommand } from "./shell.ts";

export interface Policy {
  mode: Mode;
  deny: readonly Rule[];
  ask: readonly Rule[];
  allow: readonly Rule[];
  /** Patterns the user allowed for this session when asked. */
  session: readonly Rule[];
}

export interface Call {
  toolName: string;
  input: Record<string, unknown>;
  /** The tool's own read-only flag: trusted, unless `readOnlyIsHint`. */
  readOnly: boolean;
  /**
   * The flag is a stranger's hint (a tool of an MCP server, whatever name it is registered under): it never
   * grants anything.
   */
  readOnlyIsHint?: boolean;
}

export type Decision =
  | { decision: "allow"; by: "rule" | "session" | "mode"; rule?: string; reason: string }
  | { decision: "deny"; by: "rule"; rule: string; reason: string }
  | {
      decision: "ask";
      by: "rule" | "mode";
      rule?: string;
      /** What needs the user's yes, for the question and for the model when nobody can answer. */
      reason: string;
      /** Something in it cannot be undone: `--yes` does not approve it. */
      irreversible: boolean;
      /** It changes a protected file: no "always allow" is offered, and `--yes` does not approve it. */
      protected: boolean;
      /**
       * Rules that would allow what asked, offered as "always allow" and kept for "allow for this session"; empty
       * when something in it no rule can name (a file name computed at run time): then it can be allowed once.
       */
      suggestions: string[];
    };

/** Which modes let an item run when no rule speaks for it. */
type Level = "read" | "auto" | "ask";

interface Item {
  subject: Subject;
  /** What allow rules and session grants must match, when narrower than what deny and ask rules see. */
  grantSubject?: Subject;
  label: string;
  level: Level;
  /** Why the mode does not allow it on its own, when it does not. */
  why?: string;
  irreversible?: string;
  protected?: string;
  /** The rule that would allow it; none when no rule can name it. */
  suggestion?: string;
}

/** Decides one call. `parse` turns a bash command line into its commands. */
export function decide(call: Call, policy: Policy, places: Places, parse: (command: string) => ParsedShell): Decision {
  const items = itemsOf(call, places, parse);
  if (call.toolName === "bash" && typeof call.input.command === "string") {
    // The whole line as written, too: a deny rule still holds when the parser could not split it.
    const whole = firstMatch(
      policy.deny,
      { toolName: "bash", commands: [normaliseCommand(call.input.command)] },
      places.home,
    );
    if (whole) return denied(whole, `\`${call.input.command}\``);
  }
  const asks: { item: Item; rule?: Rule; why: string }[] = [];
  let by: "rule" | "session" | "mode" = "mode";
  let allowedBy: Rule | undefined;
  for (const item of items) {
    const deny = firstMatch(policy.deny, item.subject, places.home);
    if (deny) return denied(deny, item.label);
    const grantSubject = item.grantSubject ?? item.subject;
    if (firstMatch(policy.session, grantSubject, places.home)) {
      if (by === "mode") by = "session";
      continue;
    }
    const ask = firstMatch(policy.ask, item.subject, places.home);
    if (ask) {
      asks.push({ item, rule: ask, why: `it matches the ask rule ${ask.text}` });
      continue;
    }
    if (item.protected && policy.mode !== "full") {
      asks.push({ item, why: `it changes a protected file: ${item.protected}` });
      continue;
    }
    const allow = firstMatch(policy.allow, grantSubject, places.home);
    if (allow) {
      by = "rule";
      allowedBy ??= allow;
      continue;
    }
    if (policy.mode === "full" || item.level === "read" || (item.level === "auto" && policy.mode === "auto")) continue;
    asks.push({
      item,
      why:
        item.why ??
        (policy.mode === "ask"
          ? "the permission mode is ask, which asks before every change and command"
          : "it may change something"),
    });
  }
  if (asks.length > 0) {
    const first = asks.find((a) => a.rule);
    return {
      decision: "ask",
      by: first ? "rule" : "mode",
      ...(first?.rule && { rule: first.rule.text }),
      reason: asks
        .map((a) => {
          const also = a.item.irreversible && a.why !== a.item.irreversible ? `; ${a.item.irreversible}` : "";
          return `${a.item.label}: ${a.why}${also}`;
        })
        .join("; "),
      irreversible: asks.some((a) => a.item.irreversible),
      protected: asks.some((a) => a.item.protected),
      suggestions: asks.every((a) => a.item.suggestion) ? [...new Set(asks.map((a) => a.item.suggestion!))] : [],
    };
  }
  const reason =
    by === "rule"
      ? `allowed by the rule ${allowedBy!.text}`
      : by === "session"
        ? "allowed for this session by the user"
        : `allowed by the ${policy.mode} mode`;
  return { decision: "allow", by, ...(allowedBy && { rule: allowedBy.text }), reason };
}

function denied(rule: Rule, label: string): Decision {
  return {
    decision: "deny",
    by: "rule",
    rule: rule.text,
    reason: `${label} is denied by the permission rule ${rule.text}`,
  };
}

function itemsOf(call: Call, places: Places, parse: (command: string) => ParsedShell): Item[] {
  if (call.toolName === "bash") return bashItems(String(call.input.command ?? ""), places, parse);
  if (PATH_TOOLS.has(call.toolName)) return [pathItem(call, places)];
  const hint = call.readOnlyIsHint === true;
  const action = typeof call.input.action === "string" ? call.input.action : undefined;
  const reads =
    (call.readOnly && !hint) ||
    (call.toolName === "process" && (action === "list" || action === "read" || action === "wait"));
  return [
    {
      subject: { toolName: call.toolName, ...(action !== undefined && { other: action }) },
      label: `the ${call.toolName} tool`,
      level: reads ? "read" : "ask",
      why:
        hint && call.readOnly ? "an MCP tool's read-only hint is not trusted" : `${call.toolName} may change something`,
      suggestion: call.toolName,
    },
  ];
}

function pathItem(call: Call, places: Places): Item {
  const path = resolvePath(typeof call.input.path === "string" ? call.input.path : ".", places);
  const changes = call.toolName === "edit" || call.toolName === "write";
  const shown = path.rel ?? path.abs;
  if (!changes) {
    return {
      subject: { toolName: call.toolName, path },
      label: `${call.toolName} ${shown}`,
      level: call.readOnly ? "read" : "ask",
      suggestion: `${call.toolName}(${folderPattern(path)})`,
    };
  }
  return {
    subject: { toolName: call.toolName, path },
    label: `${call.toolName} ${shown}`,
    level: path.rel !== undefined ? "auto" : "ask",
    ...(path.rel === undefined && { why: "it is outside the workspace" }),
    ...protection(path, places),
    suggestion: pathRule(call.toolName, path, places),
  };
}

/** The rule for a path's folder; for a protected file, the file alone. */
function pathRule(toolName: string, path: ResolvedPath, places: Places): string {
  return `${toolName}(${protectedReason(path, places) ? (path.rel ?? path.abs) : folderPattern(path)})`;
}

function protection(path: ResolvedPath, places: Places): { protected?: string } {
  const why = protectedReason(path, places);
  return why ? { protected: why } : {};
}

function bashItems(line: string, places: Places, parse: (command: string) => ParsedShell): Item[] {
  const parsed = parse(line);
  const lineUnsafe = parsed.parseError
    ? "bash could not be parsed, so what it runs cannot be told"
    : parsed.substitution
      ? "it runs a command substitution ($(…), backticks, <(…)), whose output becomes part of a command"
      : undefined;
  const items: Item[] = parsed.commands.map((command) => commandItem(command, places, lineUnsafe));
  for (const redirect of parsed.redirects) {
    if (redirect.target === undefined) {
      items.push({
        subject: { toolName: "write" },
        label: "an output redirection",
        level: "ask",
        why: "it writes to a file whose name is computed when it runs",
      });
      continue;
    }
    if (isDevice(redirect.target)) continue;
    const path = resolvePath(redirect.target, places);
    items.push({
      subject: { toolName: "write", path },
      label: `> ${path.rel ?? path.abs}`,
      level: path.rel !== undefined ? "auto" : "ask",
      why: "it writes a file outside the workspace",
      ...protection(path, places),
      suggestion: pathRule("write", path, places),
    });
  }
  if (parsed.parseError)
    items.push({
      subject: { toolName: "bash", commands: [normaliseCommand(line)] },
      label: `\`${line}\``,
      level: "ask",
      why: lineUnsafe!,
      suggestion: `bash(${normaliseCommand(line)})`,
    });
  return items;
}

function commandItem(command: ShellCommand, places: Places, lineUnsafe: string | undefined): Item {
  const inner = unwrap(command);
  const written = command.words.length > 0 ? command.words.join(" ") : command.source;
  const texts = [...new Set([normaliseCommand(written), normaliseCommand(inner.words.join(" "))])].filter(
    (t) => t.length > 0,
  );
  const judged = classify(command, places);
  const label = `\`${command.source}\``;
  // Deny and ask rules see through every wrapper; an allow rule for `apt-get install *` must not grant
  // `sudo apt-get …`.
  const grantSubject = inner.harmless ? undefined : { toolName: "bash", commands: [normaliseCommand(command.source)] };
  const item: Item = {
    subject: { toolName: "bash", commands: texts },
    ...(grantSubject && { grantSubject }),
    label,
    level: "ask",
    suggestion: grantSubject
      ? `bash(${normaliseCommand(command.source)})`
      : suggestRule(inner.words, inner.literal, judged.class === "irreversible", command.source),
  };
  if (judged.class === "irreversible") item.irreversible = `it cannot be undone: ${judged.why}`;
  if (judged.class === "read-only") {
    if (lineUnsafe) item.why = lineUnsafe;
    else item.level = "auto";
  } else {
    item.why = item.irreversible ?? judged.why ?? "it may change files or the machine";
    const touched = inner.words
      .slice(1)
      .filter((w, i) => inner.literal[i + 1] && !w.startsWith("-"))
      .map((w) => resolvePath(w, places));
    const guarded = touched.map((p) => protectedReason(p, places)).find(Boolean);
    if (guarded) item.protected = guarded;
  }
  return item;
}

/** Multi-level commands whose second word names what they do: `git push`, `npm run build`. */
const SUBCOMMANDS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "pip",
  "make",
  "gh",
  "terraform",
  "helm",
]);

/** Programs that run whatever their arguments say: "always allow" offers only the exact command for them. */
const INTERPRETERS = new Set([
  "node",
  "python",
  "python3",
  "ruby",
  "perl",
  "php",
  "bash",
  "sh",
  "zsh",
  "deno",
  "bun",
  "npx",
  "bunx",
  "eval",
  "xargs",
  "sudo",
]);

/**
 * The rule "always allow" offers: `bash(git commit *)`; the exact command for interpreters and what cannot be undone.
 */
function suggestRule(words: string[], literal: boolean[], exact: boolean, source: string): string {
  if (exact || words.length === 0 || !literal.every(Boolean) || INTERPRETERS.has(words[0]!))
    return `bash(${normaliseCommand(words.length > 0 ? words.join(" ") : source)})`;
  const [name, second, third] = words as [string, string | undefined, string | undefined];
  const prefix = [name];
  if (SUBCOMMANDS.has(name) && second && !second.startsWith("-")) {
    prefix.push(second);
    if (second === "run" && third && !third.startsWith("-")) prefix.push(third);
  }
  return `bash(${prefix.join(" ")} *)`;
}
