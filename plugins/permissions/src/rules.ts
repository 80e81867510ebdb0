/**
 * Permission rules: `tool` or `tool(pattern)`, e.g. `bash(git push*)`, `edit(src/**)`, `read(**\/.env)`,
 * `mcp__github__*`. The tool part is keel's tool name or Claude Code's (`Bash`, `Edit`, `Write`, `Read`,
 * `Glob`, `Grep`, `LS`), `*` matching any run of characters. A file rule names a family: `read(…)` covers every
 * tool that reads files (read, find, grep, ls) and `edit(…)` every tool that changes them (edit, write), so one
 * deny rule cannot be walked around by switching tools. A command pattern matches one command of a line at a
 * time; `*` matches anything and a trailing ` *` (or Claude Code's `:*`) also matches nothing, so
 * `bash(npm run test *)` allows `npm run test` and `npm run test -- --watch`. A path pattern is a picomatch glob:
 * absolute (`/etc/**`), from the home folder (`~/.ssh/**`), or relative to the workspace (`src/**`); one that
 * starts with `**\/` also matches outside the workspace.
 */
import { createRequire } from "node:module";
import { keelToolName } from "@keel/formats/tools";
import type { ResolvedPath } from "./paths.ts";

/** File rules by family: the tools a `read(…)` or `edit(…)` rule speaks for. */
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  read: ["read", "find", "grep", "ls"],
  edit: ["edit", "write"],
};

/** The tools whose subject is a path (the rest, but bash, have none). */
export const PATH_TOOLS: ReadonlySet<string> = new Set([...FAMILIES.read!, ...FAMILIES.edit!]);

export interface Rule {
  /** The text as written, for messages and events. */
  text: string;
  tools: (toolName: string) => boolean;
  /** Undefined when the rule names the tool alone: every call of it matches. */
  pattern: string | undefined;
  command?: RegExp;
  path?: (path: ResolvedPath, home: string) => boolean;
}

type Picomatch = (glob: string, options?: { dot?: boolean }) => (path: string) => boolean;
let picomatchModule: Picomatch | undefined;
const picomatch: Picomatch = (glob, options) =>
  (picomatchModule ??= createRequire(import.meta.url)("picomatch") as Picomatch)(glob, options);

const RULE = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s;

/** Parses one rule; throws an error naming the rule and what is wrong with it. */
export function parseRule(text: string): Rule {
  const match = RULE.exec(text.trim());
  if (!match)
    throw new Error(
      `"${text}" is not a rule: write a tool name, or a tool name with a pattern in parentheses, ` +
        `e.g. "bash(git push*)" or "edit(src/**)"`,
    );
  const [, toolPart, pattern] = match as unknown as [string, string, string | undefined];
  if (pattern !== undefined && pattern.trim() === "")
    throw new Error(`"${text}" has an empty pattern: leave the parentheses out to match every call of the tool`);
  // A Claude Code tool keel has no counterpart of keeps its name, which no keel tool has: the rule matches nothing.
  const tool = keelToolName(toolPart) ?? toolPart;
  const family = FAMILIES[tool];
  const namePattern = wildcard(toolPart);
  const tools = family
    ? (name: string) => family.includes(name)
    : toolPart.includes("*")
      ? (name: string) => namePattern.test(name)
      : (name: string) => name === tool;
  const rule: Rule = { text, tools, pattern: pattern?.trim() };
  if (rule.pattern === undefined || rule.pattern === "*") return { ...rule, pattern: undefined };
  if (tool === "bash") rule.command = commandPattern(rule.pattern);
  else if (PATH_TOOLS.has(tool)) rule.path = pathPattern(rule.pattern);
  return rule;
}

/** Parses a list of rules; the ones that do not parse are returned as problems, the rest apply. */
export function parseRules(texts: readonly string[]): { rules: Rule[]; problems: string[] } {
  const rules: Rule[] = [];
  const problems: string[] = [];
  for (const text of texts) {
    try {
      rules.push(parseRule(text));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { rules, problems };
}

/** What a call offers a rule to match: its tool, and one command text or one path. */
export interface Subject {
  toolName: string;
  /** Command texts of one command (as written, and without harmless wrappers such as `timeout 5`). */
  commands?: readonly string[];
  path?: ResolvedPath;
  /** The subject of tools that are neither bash nor file tools (the `process` tool's action). */
  other?: string;
}

/** The first rule that matches the subject. */
export function firstMatch(rules: readonly Rule[], subject: Subject, home: string): Rule | undefined {
  return rules.find((rule) => matches(rule, subject, home));
}

export function matches(rule: Rule, subject: Subject, home: string): boolean {
  if (!rule.tools(subject.toolName)) return false;
  if (rule.pattern === undefined) return true;
  if (rule.command) return subject.commands?.some((text) => rule.command!.test(text)) ?? false;
  if (rule.path) return subject.path !== undefined && rule.path(subject.path, home);
  return subject.other !== undefined && wildcard(rule.pattern).test(subject.other);
}

/** Words separated by single spaces, the way command texts are built. */
export function normaliseCommand(text: string): string {
  return text.trim().split(/\s+/).join(" ");
}

function commandPattern(pattern: string): RegExp {
  const text = normaliseCommand(pattern.replace(/:\*$/, " *"));
  if (text.endsWith(" *")) return new RegExp(`^${wildcardSource(text.slice(0, -2))}(?: .*)?$`, "s");
  return new RegExp(`^${wildcardSource(text)}$`, "s");
}

function pathPattern(pattern: string): (path: ResolvedPath, home: string) => boolean {
  const glob = pattern.startsWith("//") ? pattern.slice(1) : pattern;
  if (glob.startsWith("/")) {
    const test = picomatch(glob, { dot: true });
    return (path) => test(path.abs);
  }
  if (glob.startsWith("~/")) {
    const rest = picomatch(glob.slice(2), { dot: true });
    return (path, home) => path.abs.startsWith(`${home}/`) && rest(path.abs.slice(home.length + 1));
  }
  const relativeGlob = glob.startsWith("./") ? glob.slice(2) : glob;
  const test = picomatch(relativeGlob, { dot: true });
  const anywhere = relativeGlob.startsWith("**/");
  return (path) => (path.rel !== undefined && test(path.rel)) || (anywhere && test(path.abs.slice(1)));
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${wildcardSource(pattern)}$`, "s");
}

function wildcardSource(pattern: string): string {
  return pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
}
