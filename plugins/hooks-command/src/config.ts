/**
 * The hook configuration in Claude Code's format: `{ "<Event>": [{ "matcher": "Bash", "hooks": [{ "type":
 * "command", "command": "...", "timeout": 60 }] }] }`, from the `hooks` key of settings (a project's
 * `.claude/settings.json` is mapped into it, each group naming its file in `source`) and from a plugin's
 * `hooks/hooks.json` (`{ "description"?, "hooks": { ... } }`). Each group is parsed on its own, so one bad entry
 * is reported by where it is and loses only itself; a file in another tool's shape is told so in one line.
 */
import { z } from "@keel/extensions-api";
import { EVENTS, NOT_RUN, type HookEventName } from "./events.ts";

const seconds = z.number().positive().optional();
// Loose: Claude Code adds fields (statusMessage, once, …) that change nothing here; they must not void a group.
const CommandHookSchema = z
  .object({
    type: z.literal("command"),
    command: z.string().min(1),
    timeout: seconds,
    async: z.boolean().optional(),
    shell: z.enum(["sh", "bash", "zsh"]).optional(),
  })
  .loose();
const HttpHookSchema = z
  .object({
    type: z.literal("http"),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
    timeout: seconds,
  })
  .loose();
/** A model judges the event (`prompt`), or a subagent with read-only tools does (`agent`). */
const ModelHookSchema = z
  .object({
    type: z.enum(["prompt", "agent"]),
    prompt: z.string().min(1),
    model: z.string().optional(),
    timeout: seconds,
  })
  .loose();
const GroupSchema = z.object({
  matcher: z.string().optional(),
  hooks: z.array(z.object({ type: z.string() }).loose()),
  /** The file a group was mapped from (`.claude/settings.json`), named in messages. */
  source: z.string().optional(),
});

export type CommandHook = z.output<typeof CommandHookSchema>;
export type HttpHook = z.output<typeof HttpHookSchema>;
export type ModelHook = z.output<typeof ModelHookSchema>;
export type HookSpec = CommandHook | HttpHook | ModelHook;

/** The events a model can judge: those whose hooks can block or continue the run. */
const JUDGED: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
]);

/** One hook ready to run: what it is, which calls it applies to, and where it came from (for messages). */
export interface ConfiguredHook {
  event: HookEventName;
  /** Anchored like Claude Code's matchers (`Bash` matches only Bash); undefined matches everything. */
  matcher?: RegExp;
  spec: HookSpec;
  /** `settings`, a file, or `plugin <name>`. */
  origin: string;
  /** The plugin folder of a plugin's hooks (CLAUDE_PLUGIN_ROOT). */
  pluginRoot?: string;
}

/** A value's shape in a few words, for a message that must not echo a whole file. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length} entr${value.length === 1 ? "y" : "ies"}`;
  return value === null ? "null" : `a ${typeof value}`;
}

/** The files a set of groups names (their `source`), else the origin given. */
function originOf(groups: unknown, origin: string): string {
  const sources = Array.isArray(groups)
    ? [...new Set(groups.map((g) => (g as { source?: unknown } | null)?.source).filter((s) => typeof s === "string"))]
    : [];
  return sources.length === 1 ? (sources[0] as string) : origin;
}

/** Parses one `hooks` object; `problems` gets one line per entry that was skipped, saying where and why. */
export function parseHooks(value: unknown, origin: string, problems: string[], pluginRoot?: string): ConfiguredHook[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(
      `${origin}: "hooks" must be an object of Claude Code event names, not ${shapeOf(value)}; no hooks from it run`,
    );
    return [];
  }
  const events = Object.keys(value);
  if (events.length > 0 && events.every((event) => /^[a-z]/.test(event))) {
    problems.push(
      `${origin}: its hooks are in another tool's format (events such as "${events[0]}"; Claude Code's are ` +
        `"SessionStart", "PreToolUse", …); no hooks from it run`,
    );
    return [];
  }
  const hooks: ConfiguredHook[] = [];
  for (const [event, groups] of Object.entries(value)) {
    const where = originOf(groups, origin);
    if (!(event in EVENTS)) {
      const why = NOT_RUN[event] ? `keel does not run it: ${NOT_RUN[event]}` : "it is not a Claude Code event";
      problems.push(`${where}: hooks.${event} was skipped (${why})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(
        `${where}: hooks.${event} must be a list of { matcher, hooks } groups, not ${shapeOf(groups)}; skipped`,
      );
      continue;
    }
    groups.forEach((raw, i) =>
      hooks.push(...parseGroup(raw, event as HookEventName, `hooks.${event}[${i}]`, problems, where, pluginRoot)),
    );
  }
  return hooks;
}

function parseGroup(
  raw: unknown,
  event: HookEventName,
  path: string,
  problems: string[],
  origin: string,
  pluginRoot?: string,
): ConfiguredHook[] {
  const group = GroupSchema.safeParse(raw);
  const where = `${origin}: ${path}`;
  if (!group.success) {
    problems.push(`${where}: ${z.prettifyError(group.error).replace(/\n/g, " ")}; skipped`);
    return [];
  }
  let matcher: RegExp | undefined;
  const text = group.data.matcher;
  if (text !== undefined && text !== "" && text !== "*") {
    try {
      matcher = new RegExp(`^(?:${text})$`);
    } catch (error) {
      problems.push(
        `${where}: matcher ${JSON.stringify(text)} is not a regular expression (${(error as Error).message}); skipped`,
      );
      return [];
    }
  }
  return group.data.hooks.flatMap((entry, j): ConfiguredHook[] => {
    const schema =
      entry.type === "command"
        ? CommandHookSchema
        : entry.type === "http"
          ? HttpHookSchema
          : entry.type === "prompt" || entry.type === "agent"
            ? ModelHookSchema
            : undefined;
    if (!schema) {
      problems.push(
        `${where}.hooks[${j}]: type "${entry.type}" is not one keel runs (command, http, prompt, agent); skipped`,
      );
      return [];
    }
    const spec = schema.safeParse(entry);
    if (!spec.success) {
      problems.push(`${where}.hooks[${j}]: ${z.prettifyError(spec.error).replace(/\n/g, " ")}; skipped`);
      return [];
    }
    if (spec.data.type !== "command" && spec.data.type !== "http" && !JUDGED.has(event)) {
      problems.push(`${where}.hooks[${j}]: a ${spec.data.type} hook can only judge ${[...JUDGED].join(", ")}; skipped`);
      return [];
    }
    return [{ event, matcher, spec: spec.data, origin, pluginRoot }];
  });
}
