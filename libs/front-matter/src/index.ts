/**
 * Markdown files with YAML front matter (`---` lines around it), as skills, prompt templates, slash commands
 * and agent definitions are written. Simple headers are read without a YAML parser (simple.ts); the `yaml`
 * package is imported on the first header that needs it, so most sessions never load it. A header that is not
 * valid YAML only because of unquoted colons or brackets in single-line values is read as Claude Code reads it
 * (lenient.ts).
 */
import type { z } from "zod";
import { quoteLiteralValues } from "./lenient.ts";
import { parseSimpleHeader } from "./simple.ts";

export interface FrontMatter {
  /** The parsed header; `{}` when the file has none. */
  data: Record<string, unknown>;
  /** The text after the header. */
  body: string;
}

const HEADER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** Splits and parses; throws with the YAML error when the header is not a YAML mapping, even read leniently. */
export async function parseFrontMatter(text: string): Promise<FrontMatter> {
  const match = HEADER.exec(text);
  if (!match) return { data: {}, body: text };
  const header = match[1] ?? "";
  const simple = parseSimpleHeader(header);
  if (simple) return { data: simple, body: text.slice(match[0].length) };
  const { parse } = await import("yaml");
  let data: unknown;
  try {
    data = parse(header);
  } catch (error) {
    const quoted = quoteLiteralValues(header, parse);
    if (quoted === header) throw error;
    data = parse(quoted);
  }
  if (data !== null && (typeof data !== "object" || Array.isArray(data)))
    throw new Error("its front matter is not a YAML mapping of keys to values");
  const body = text.slice(match[0].length);
  return { data: (data ?? {}) as Record<string, unknown>, body };
}

/**
 * Reads `text`'s front matter against `schema`. A problem (bad YAML, a missing or wrong key) is pushed to
 * `problems` naming `file` and the key, and the file is skipped (undefined).
 */
export async function readHeader<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  problems: string[],
): Promise<{ data: z.output<S>; body: string } | undefined> {
  let parsed: FrontMatter;
  try {
    parsed = await parseFrontMatter(text);
  } catch (error) {
    problems.push(`${file}: ${headerError(error)}; the file was skipped`);
    return undefined;
  }
  const checked = schema.safeParse(parsed.data);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    problems.push(`${file}: front matter key "${issue.path.join(".")}" ${issue.message}; the file was skipped`);
    return undefined;
  }
  return { data: checked.data, body: parsed.body };
}

/** The first line of a YAML error, as a clause for "<file>: …". */
export function headerError(error: unknown): string {
  const first = (error as Error).message.split("\n")[0]!.replace(/:$/, "");
  return first.startsWith("its front matter") ? first : `its front matter is not YAML (${first})`;
}
