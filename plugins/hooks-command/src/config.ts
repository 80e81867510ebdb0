/**
 * The hook configuration in Claude Code's format: `{ "<Event>": [{ "matcher": "Bash", "hooks": [{ "type":
 * "command", "command": "...", "timeout": 60 }] }] }`, from the `hooks` key of settings.json and from a plugin's
 * `hooks/hooks.json` (`{ "description"?, "hooks": { ... } }`). Each group is parsed on its own, so one bad
 * entry is reported by where it is and loses only itself.
 */
import { z } from "@keel/extensions-api";
import { EVENTS, type HookEventName } from "./events.ts";

const seconds = z.number().positive().optional();
// Loose: Claude Code adds fields (statusMessage, once, …) that change nothing here; they must not void a group.
const CommandHookSchema = z
  .object({ type: z.literal("command"), command: z.string().min(1), timeout: seconds })
  .loose();
const HttpHookSchema = z
  .object({
    type: z.literal("http"),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
    timeout: seconds,
  })
  .loose();
const GroupSchema = z.object({
  matcher: z.string().optional(),
  hooks: z.array(z.object({ type: z.string() }).loose()),
});

export type CommandHook = z.output<typeof CommandHookSchema>;
export type HttpHook = z.output<typeof HttpHookSchema>;
export type HookSpec = CommandHook | HttpHook;

/** One hook ready to run: what it is, which calls it applies to, and where it came from (for messages). */
export interface ConfiguredHook {
  event: HookEventName;
  /** Anchored like Claude Code's matchers (`Bash` matches only Bash); undefined matches everything. */
  matcher?: RegExp;
  spec: HookSpec;
  /** `settings` or `plugin <name>`. */
  origin: string;
  /** The plugin folder of a plugin's hooks (CLAUDE_PLUGIN_ROOT). */
  pluginRoot?: string;
}

/** Parses one `hooks` object; `problems` gets one line per entry that was skipped, saying where and why. */
export function parseHooks(value: unknown, origin: string, problems: string[], pluginRoot?: string): ConfiguredHook[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(
      `${origin}: "hooks" must be an object of event names, got ${JSON.stringify(value)}; no hooks from it run`,
    );
    return [];
  }
  const hooks: ConfiguredHook[] = [];
  for (const [event, groups] of Object.entries(value)) {
    if (!(event in EVENTS)) {
      problems.push(`${origin}: hooks.${event} is not an event keel runs (${Object.keys(EVENTS).join(", ")}); skipped`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${origin}: hooks.${event} must be a list of { matcher, hooks } groups; skipped`);
      continue;
    }
    groups.forEach((raw, i) =>
      hooks.push(
        ...parseGroup(raw, event as HookEventName, `${origin}: hooks.${event}[${i}]`, problems, origin, pluginRoot),
      ),
    );
  }
  return hooks;
}

function parseGroup(
  raw: unknown,
  event: HookEventName,
  where: string,
  problems: string[],
  origin: string,
  pluginRoot?: string,
): ConfiguredHook[] {
  const group = GroupSchema.safeParse(raw);
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
    const schema = entry.type === "command" ? CommandHookSchema : entry.type === "http" ? HttpHookSchema : undefined;
    if (!schema) {
      problems.push(`${where}.hooks[${j}]: type "${entry.type}" is not supported (command, http); skipped`);
      return [];
    }
    const spec = schema.safeParse(entry);
    if (!spec.success) {
      problems.push(`${where}.hooks[${j}]: ${z.prettifyError(spec.error).replace(/\n/g, " ")}; skipped`);
      return [];
    }
    return [{ event, matcher, spec: spec.data, origin, pluginRoot }];
  });
}
