/** Reading JSON out of SSE `data:` fields, with errors that quote what arrived. */
import { jsonNestingDepth, MAX_ARGUMENT_DEPTH, type z } from "@keel/extensions-api";
import { ProviderError } from "./errors.ts";
import { fastCheck } from "./fast-check.ts";

let schemaAlone = false;

/**
 * Runs `fn` with every event `parseEvent` reads parsed by its zod schema alone, without the fast check: for tests
 * that compare the two paths on the same input, and benchmarks that time them. `fn` must be synchronous.
 */
export function withSchemaAlone<T>(fn: () => T): T {
  const before = schemaAlone;
  schemaAlone = true;
  try {
    return fn();
  } finally {
    schemaAlone = before;
  }
}

function shown(data: string): string {
  return JSON.stringify(data.length > 120 ? `${data.slice(0, 120)}… (${data.length} chars)` : data);
}

/**
 * Parses one event's data against the fields a decoder reads. Malformed JSON or an unexpected shape is a
 * stream error that names the event and shows the start of its data. A value the fast check (fast-check.ts)
 * says fits is returned as parsed, unknown keys and all, so a decoder reads only the fields its schema names;
 * anything else goes through zod, which words the error.
 */
export function parseEvent<T extends z.ZodType>(schema: T, data: string, event: string, label: string): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ProviderError(`${label} sent malformed JSON in a ${JSON.stringify(event)} event: ${shown(data)}`, {
      kind: "stream",
    });
  }
  if (!schemaAlone && fastCheck(schema)?.(value)) return value as z.output<T>;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      `${label} sent a ${JSON.stringify(event)} event of an unexpected shape ` +
        `(${issue?.path.join(".") || "(root)"}: ${issue?.message}): ${shown(data)}`,
      { kind: "stream" },
    );
  }
  return parsed.data;
}

/**
 * Parses tool-call arguments for formats that want an object; anything but a JSON object becomes `{}`, and so
 * do arguments nested past `MAX_ARGUMENT_DEPTH` (the loop refused that call; serialising them would overflow).
 */
export function argumentsObject(raw: string): Record<string, unknown> {
  if (jsonNestingDepth(raw, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
