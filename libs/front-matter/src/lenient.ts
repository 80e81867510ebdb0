/**
 * Front matter that is not valid YAML, read the way Claude Code reads it. Real skills, commands and agents
 * are written by hand with unquoted colons (`description: Use when: …`) and brackets or bars in plain values
 * (`argument-hint: [--fix] | [file]`), which a YAML parser refuses. Claude Code reads such a header by taking
 * each top-level `key: value` line whose value does not parse as YAML as the literal text after the colon;
 * this does the same and parses again, so a header that is broken only that way still reads, and one broken
 * otherwise is still refused.
 */
import type { parse as Parse } from "yaml";

const TOP_LEVEL_KEY = /^([A-Za-z_][\w.-]*):[ \t]+(\S.*?)\s*$/;

/** The header with each single-line value that is not YAML on its own quoted as the literal text it holds. */
export function quoteLiteralValues(header: string, parse: typeof Parse): string {
  const lines = header.split(/\r?\n/);
  return lines
    .map((line, i) => {
      const match = TOP_LEVEL_KEY.exec(line);
      // A value continued on indented lines is a block; it is left for the parser to judge.
      if (!match || /^[ \t]/.test(lines[i + 1] ?? "")) return line;
      const [, key, value] = match as unknown as [string, string, string];
      try {
        parse(`v: ${value}`);
        return line;
      } catch {
        return `${key}: ${JSON.stringify(value)}`;
      }
    })
    .join("\n");
}
