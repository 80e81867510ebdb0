/**
 * The headers most files have, read without the YAML parser: `key: value` lines (quoted or plain text, a
 * number, `true`/`false`, a `[a, b]` list of plain items) and `key:` followed by `  - item` lines. Loading `yaml`
 * (~200 KB) cost a start that reads a project's skills, commands and agents more than reading them did. A header
 * with anything else (a block scalar, a nested mapping, a value continued on the next line, a comment after a
 * value, anchors, tags, a repeated key) answers undefined and goes to the YAML parser. A plain value with a
 * colon in it is its literal text, as Claude Code reads it (lenient.ts).
 */

type Value = string | number | boolean | null | Value[];

const KEY = /^([A-Za-z_][\w.-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const ITEM = /^[ \t]+-[ \t]+(.*?)[ \t]*$/;

function scalar(text: string): { value: Value } | undefined {
  if (text === "" || text === "~" || text === "null") return { value: null };
  if (text === "true" || text === "false") return { value: text === "true" };
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)) return { value: Number(text) };
  if (text.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\["\\/nt])*"$/.test(text)) return undefined;
    return { value: JSON.parse(text) as string };
  }
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) return undefined;
    return { value: text.slice(1, -1).replaceAll("''", "'") };
  }
  if (/^[[\]{}|>&*!%@`#,?-]/.test(text) || /\s#/.test(text)) return undefined;
  return { value: text };
}

function flowList(text: string): { value: Value[] } | undefined {
  const inner = text.slice(1, -1).trim();
  if (/[[\]{}"']/.test(inner)) return undefined;
  const items = inner === "" ? [] : inner.split(",").map((item) => scalar(item.trim()));
  if (items.some((item) => item === undefined || item.value === null)) return undefined;
  return { value: items.map((item) => item!.value) };
}

/** The header's keys and values, or undefined when it needs the YAML parser. */
export function parseSimpleHeader(header: string): Record<string, Value> | undefined {
  const data: Record<string, Value> = {};
  const blocks = new Set<string>();
  let list: Value[] | undefined;
  for (const line of header.split(/\r?\n/)) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const item = ITEM.exec(line);
    if (item) {
      const value = list && scalar(item[1]!);
      if (!value || Array.isArray(value.value)) return undefined;
      list!.push(value.value);
      continue;
    }
    const match = KEY.exec(line);
    if (!match || Object.hasOwn(data, match[1]!)) return undefined;
    const [, key, text = ""] = match as unknown as [string, string, string | undefined];
    list = undefined;
    if (text === "") {
      data[key] = list = [];
      blocks.add(key);
    } else {
      const value = text.startsWith("[") && text.endsWith("]") ? flowList(text) : scalar(text);
      if (!value) return undefined;
      data[key] = value.value;
    }
  }
  // `key:` with no items under it is YAML's null, not an empty list.
  for (const key of blocks) if ((data[key] as Value[]).length === 0) data[key] = null;
  return data;
}
