/**
 * keel's tools as Claude Code's scripts know them: the one catalog of Claude Code's tool names, the
 * `tool_input` shape a script reads (`file_path`, `old_string`, `run_in_background`, …), how a hook's
 * `updatedInput` in that shape becomes keel's input again, and the `tool_response` a PostToolUse script reads.
 * A script written for Claude Code (`jq -r .tool_input.file_path`) works unchanged; keel's own fields that
 * Claude Code's tools lack (grep's `literal`, a `limit`) ride along under keel's names.
 */
import { isAbsolute, resolve } from "node:path";
import { textOf, type ToolResultMessage } from "@keel/extensions-api";

type Fields = Record<string, unknown>;

interface WireTool {
  /** Claude Code's names of the tool; the first is what `tool_name` says unless `toWire` picks another. */
  names: readonly string[];
  /** keel's input as the script sees it, and the name it sees when the input decides it (Edit / MultiEdit). */
  toWire(input: Fields, cwd: string): { name?: string; input: Fields };
  /** A script's input back in keel's shape; throws, saying why, when keel's tool cannot do what it asks. */
  fromWire(input: Fields): Fields;
  /** `tool_response` of a call that succeeded; failed calls get `{ success: false, error }`. */
  response(result: ToolResultMessage, input: Fields, cwd: string): Fields;
}

/** Drops undefined values, so a script sees only the fields that were given. */
function defined(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** Claude Code's file paths are absolute; keel's may be relative to the workspace. */
const absolute = (path: unknown, cwd: string) =>
  typeof path === "string" ? (isAbsolute(path) ? path : resolve(cwd, path)) : path;

/** Fields of `input` other than `known`: keel-only fields that travel under their own names. */
function rest(input: Fields, known: readonly string[]): Fields {
  return Object.fromEntries(Object.entries(input).filter(([k]) => !known.includes(k)));
}

const bash: WireTool = {
  names: ["Bash"],
  toWire: (i) => ({
    input: defined({
      ...rest(i, ["command", "timeout", "background"]),
      command: i.command,
      // Claude Code counts milliseconds, keel's bash seconds.
      timeout: typeof i.timeout === "number" ? i.timeout * 1000 : undefined,
      run_in_background: i.background,
    }),
  }),
  fromWire: (w) =>
    defined({
      ...rest(w, ["command", "timeout", "run_in_background", "description"]),
      command: w.command,
      timeout: typeof w.timeout === "number" ? w.timeout / 1000 : undefined,
      background: w.run_in_background,
    }),
  response: (r) => {
    const d = (r.details ?? {}) as Fields;
    return { stdout: textOf(r), stderr: "", interrupted: d.aborted === true || d.timedOut === true, isImage: false };
  },
};

const read: WireTool = {
  names: ["Read"],
  toWire: (i, cwd) => ({ input: defined({ ...rest(i, ["path"]), file_path: absolute(i.path, cwd) }) }),
  fromWire: (w) => defined({ ...rest(w, ["file_path"]), path: w.file_path }),
  response: (r, i, cwd) => {
    const d = (r.details ?? {}) as Fields;
    const file = { filePath: absolute(i.path, cwd), content: textOf(r), startLine: i.offset ?? 1 };
    return { type: "text", file: defined({ ...file, totalLines: d.totalLines }) };
  },
};

const write: WireTool = {
  names: ["Write"],
  toWire: (i, cwd) => ({ input: defined({ ...rest(i, ["path"]), file_path: absolute(i.path, cwd) }) }),
  fromWire: (w) => defined({ ...rest(w, ["file_path"]), path: w.file_path }),
  response: (r, i, cwd) => ({
    type: (r.details as Fields | undefined)?.created ? "create" : "update",
    filePath: absolute(i.path, cwd),
    content: i.content,
    success: true,
  }),
};

interface KeelEdit {
  oldText: unknown;
  newText: unknown;
}

const edit: WireTool = {
  // One replacement is Claude Code's Edit; several, its MultiEdit.
  names: ["Edit", "MultiEdit"],
  toWire: (i, cwd) => {
    const edits = Array.isArray(i.edits) ? (i.edits as KeelEdit[]) : [];
    const file_path = absolute(i.path, cwd);
    const others = rest(i, ["path", "edits"]);
    const pair = (e: KeelEdit) => ({ old_string: e.oldText, new_string: e.newText, replace_all: false });
    if (edits.length === 1) return { name: "Edit", input: { ...others, file_path, ...pair(edits[0]!) } };
    return { name: "MultiEdit", input: { ...others, file_path, edits: edits.map(pair) } };
  },
  fromWire: (w) => {
    const pairs = Array.isArray(w.edits) ? (w.edits as Fields[]) : [w];
    if (pairs.some((p) => p.replace_all === true))
      throw new Error(
        "it asks for replace_all, which keel's edit tool does not do (each edit replaces one exact match)",
      );
    const others = rest(w, ["file_path", "edits", "old_string", "new_string", "replace_all"]);
    return {
      ...others,
      path: w.file_path,
      edits: pairs.map((p) => ({ oldText: p.old_string, newText: p.new_string })),
    };
  },
  response: (_r, i, cwd) => {
    const edits = Array.isArray(i.edits) ? (i.edits as KeelEdit[]) : [];
    const filePath = absolute(i.path, cwd);
    if (edits.length !== 1)
      return { filePath, edits: edits.map((e) => ({ old_string: e.oldText, new_string: e.newText })), success: true };
    return { filePath, oldString: edits[0]!.oldText, newString: edits[0]!.newText, replaceAll: false, success: true };
  },
};

/** A tool whose output is a listing: its text is the response, as `content`. */
const listing = (names: string[], map: Readonly<Record<string, string>>, fixed: Fields = {}): WireTool => {
  const back = Object.fromEntries(Object.entries(map).map(([keel, claude]) => [claude, keel]));
  const rename = (fields: Fields, names: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [names[k] ?? k, v]));
  return {
    names,
    toWire: (i, cwd) => ({
      input: defined({ ...rename(i, map), ...fixed, path: i.path === undefined ? undefined : absolute(i.path, cwd) }),
    }),
    fromWire: (w) => defined(rename(rest(w, Object.keys(fixed)), back)),
    response: (r) => ({ ...fixed, content: textOf(r), success: true }),
  };
};

/**
 * The catalog: keel's tool name → how Claude Code sees it. Tools not listed (keel's own, `mcp__*`) keep their
 * name and input as they are.
 */
export const WIRE_TOOLS: Readonly<Record<string, WireTool>> = {
  bash,
  read,
  write,
  edit,
  grep: listing(
    ["Grep"],
    { ignoreCase: "-i", context: "-C", limit: "head_limit" },
    { output_mode: "content", "-n": true },
  ),
  find: listing(["Glob"], {}),
  // Claude Code's newer versions have no LS tool: a guard written for Grep sees keel's ls too.
  ls: listing(["LS", "Grep"], {}),
};

/** The names a matcher is tried against for a keel tool: keel's own, then Claude Code's. */
export function toolNamesOf(keelName: string): readonly string[] {
  return [keelName, ...(WIRE_TOOLS[keelName]?.names ?? [])];
}

/** `tool_name` and `tool_input` as a Claude Code script reads them. */
export function wireCall(keelName: string, input: Fields, cwd: string): { name: string; input: Fields } {
  const tool = WIRE_TOOLS[keelName];
  if (!tool) return { name: keelName, input };
  const wire = tool.toWire(input, cwd);
  return { name: wire.name ?? tool.names[0]!, input: wire.input };
}

/**
 * A hook's `updatedInput` as keel's input: laid over the input the script was sent (so a script may return
 * only the fields it changes), then mapped back. Throws, saying why, when keel's tool cannot do what it asks.
 */
export function keelInput(keelName: string, sent: Fields, updated: Fields): Fields {
  const merged = { ...sent, ...updated };
  return WIRE_TOOLS[keelName]?.fromWire(merged) ?? merged;
}

/** `tool_response` as a Claude Code script reads it. */
export function wireResponse(result: ToolResultMessage, input: Fields, cwd: string): Fields {
  if (result.isError) return { success: false, error: textOf(result) };
  const tool = WIRE_TOOLS[result.toolName];
  return tool ? tool.response(result, input, cwd) : { content: textOf(result), is_error: false };
}
