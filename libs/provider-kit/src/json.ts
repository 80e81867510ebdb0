/** Reading JSON out of SSE `data:` fields, with errors that quote what arrived. */
import type { z } from "@keel/extensions-api";
import { ProviderError } from "./errors.ts";

function shown(data: string): string {
  return JSON.stringify(data.length > 120 ? `${data.slice(0, 120)}… (${data.length} chars)` : data);
}

/**
 * Parses one event's data against the fields a decoder reads. Malformed JSON or an unexpected shape is a
 * stream error that names the event and shows the start of its data.
 */
export function parseEvent<T extends z.ZodType>(schema: T, data: string, event: string, label: string): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ProviderError(`${label} sent malformed JSON in a ${JSON.stringify(event)} event: ${shown(data)}`, { kind: "stream" });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(`${label} sent a ${JSON.stringify(event)} event of an unexpected shape (${issue?.path.join(".") || "(root)"}: ${issue?.message}): ${shown(data)}`, { kind: "stream" });
  }
  return parsed.data;
}

/** Parses tool-call arguments for formats that want an object; anything but a JSON object becomes `{}`. */
export function argumentsObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
