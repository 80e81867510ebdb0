/**
 * How a keel tool call looks to an editor: its ACP kind (the icon and treatment), a title, the files it
 * touches (so the editor can follow along) and, for edits and writes, diffs. keel's own tools are known by
 * name; any other tool is `other`. A tool's own call line (`Tool.render`) titles it where it has one.
 */
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

const KINDS: Record<string, ToolKind> = {
  read: "read",
  write: "edit",
  edit: "edit",
  ls: "search",
  find: "search",
  grep: "search",
  bash: "execute",
  process: "execute",
};

type Input = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : undefined);

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

/** The absolute path a file tool works on, if it names one. */
function pathOf(cwd: string, input: Input): string | undefined {
  const path = str(input.path);
  return path === undefined ? undefined : isAbsolute(path) ? path : resolve(cwd, path);
}

/** A title for a tool that renders no call line of its own: its name and the path or pattern it works on. */
export function toolTitle(name: string, input: Input): string {
  const subject = str(input.path) ?? str(input.pattern);
  return subject ? `${name} ${subject}` : name;
}

export function toolLocations(cwd: string, input: Input): ToolCallLocation[] {
  const path = pathOf(cwd, input);
  return path ? [{ path }] : [];
}

/** Diffs of what an edit or a write changes; none for other tools. */
export function toolDiffs(cwd: string, name: string, input: Input): ToolCallContent[] {
  const path = pathOf(cwd, input);
  if (!path) return [];
  if (name === "write" && typeof input.content === "string")
    return [{ type: "diff", path, oldText: null, newText: input.content }];
  if (name === "edit" && Array.isArray(input.edits))
    return (input.edits as { oldText?: unknown; newText?: unknown }[])
      .filter((e) => typeof e.oldText === "string" && typeof e.newText === "string")
      .map((e) => ({ type: "diff", path, oldText: e.oldText as string, newText: e.newText as string }));
  return [];
}
