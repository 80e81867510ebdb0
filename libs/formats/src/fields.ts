/**
 * Typed reads of front-matter fields as people write them: a list may be a YAML list or one comma- or
 * space-separated line, a flag may be `true` or `"true"`. A value of the wrong kind is reported by key, so a
 * reader can refuse the file or leave the field out with a reason.
 */

export type Fields = Record<string, unknown>;

/** A text field: a string (trimmed), a number as its text; `false` when present but not text. */
export function text(fields: Fields, key: string): string | undefined | false {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number") return String(value);
  // `argument-hint: [file]` is a YAML list of one; it was meant as the text.
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return `[${value.join(", ")}]`;
  return false;
}

/** A yes/no field; `false` (the default) unless true or "true". */
export function flag(fields: Fields, key: string, fallback: boolean): boolean {
  const value = fields[key];
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return fallback;
}

/** A whole number field, undefined when absent or not one. */
export function count(fields: Fields, key: string): number | undefined {
  const value = typeof fields[key] === "string" ? Number(fields[key]) : fields[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * A list of names or rules: a YAML list, or one line separated by commas or spaces outside parentheses
 * (`Read, Bash(git add:*)` and `Read Grep Bash(git diff *)` both). Undefined when absent.
 */
export function names(fields: Fields, key: string): string[] | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : [String(value)];
  return items.flatMap(splitOutsideParentheses).filter((item) => item.length > 0);
}

function splitOutsideParentheses(line: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of line) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      out.push(current.trim());
      current = "";
    } else current += char;
  }
  out.push(current.trim());
  return out;
}

/** The first paragraph of a Markdown body that is prose (not a heading, fence or rule), as one line. */
export function firstParagraph(body: string): string | undefined {
  const lines: string[] = [];
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    if (lines.length > 0 && line === "") break;
    if (line === "" || /^(#|```|---|<!--|\|)/.test(line)) {
      if (lines.length > 0) break;
      continue;
    }
    lines.push(line);
  }
  const text = lines.join(" ").trim();
  return text ? text.slice(0, 1024) : undefined;
}
