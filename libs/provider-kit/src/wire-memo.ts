/**
 * What a request body repeats from the one before: every request sends the whole history, and a message of
 * the history never changes once it is in it (the agent freezes it). So the wire items made from a frozen
 * message, and their JSON text, are made once and reused by every later request: a 300-turn run otherwise
 * rebuilt and re-serialised all 600 messages before each request, the largest cost that grew with the session.
 * Reused items are frozen, so nothing can change what a later request sends; a `provider_request` handler
 * gets a copy of the payload (the driver's `onPayload`), never these items.
 */
import type { Message, ToolSpec } from "@keel/extensions-api";

/** Items made from one message, for requests to models alike in what the mapping reads (`key`). */
export class WireMemo<T> {
  private readonly made = new WeakMap<Message, { key: string; value: T }>();

  /** `make()`'s value for `message`, made once per `key` for a frozen message (every time for another). */
  of(message: Message, key: string, make: () => T): T {
    if (!Object.isFrozen(message)) return make();
    const hit = this.made.get(message);
    if (hit?.key === key) return hit.value;
    const value = reusable(make());
    this.made.set(message, { key, value });
    return value;
  }
}

/**
 * A format's declaration of each tool, made once: the loop sends the same tools with every request, and a tool's
 * `parameters` object stays the same while the tool does (the kernel keeps each tool's JSON schema), so the item
 * made for it is reused, and serialised once, while its name, description and `variant` (what else the format
 * puts in, e.g. a cache mark on the last tool) are the same. The item gets its own copy of the schema, which it
 * freezes, never the caller's.
 */
export class ToolMemo<T> {
  private readonly made = new WeakMap<object, { name: string; description: string; variant: string; value: T }[]>();

  of(tool: ToolSpec, variant: string, make: (parameters: Record<string, unknown>) => T): T {
    let kept = this.made.get(tool.parameters);
    const hit = kept?.find((k) => k.name === tool.name && k.description === tool.description && k.variant === variant);
    if (hit) return hit.value;
    const value = reusable(make(structuredClone(tool.parameters)));
    if (!kept) this.made.set(tool.parameters, (kept = []));
    kept.push({ name: tool.name, description: tool.description, variant, value });
    return value;
  }
}

/** JSON text of reused objects, made when first sent; an entry without text is reused but not yet sent. */
const jsonOf = new WeakMap<object, string | undefined>();

/** Freezes `value` and marks its objects as reused, so that `requestBody` serialises each of them once. */
function reusable<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  if (!Array.isArray(value)) jsonOf.set(value, undefined);
  Object.freeze(value);
  for (const child of Object.values(value)) reusable(child);
  return value;
}

/**
 * `JSON.stringify(payload)`, byte for byte, reusing the text of reused items in the payload's arrays (the
 * history). Anything else is serialised as usual.
 */
export function requestBody(payload: unknown): string {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload) || "toJSON" in payload)
    return JSON.stringify(payload);
  const fields: string[] = [];
  for (const [key, value] of Object.entries(payload)) {
    const json = Array.isArray(value) ? `[${Array.from(value, itemJson).join(",")}]` : JSON.stringify(value);
    if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${fields.join(",")}}`;
}

function itemJson(item: unknown): string {
  if (item === null || typeof item !== "object" || !jsonOf.has(item)) return JSON.stringify(item) ?? "null";
  let json = jsonOf.get(item);
  if (json === undefined) {
    json = JSON.stringify(item);
    jsonOf.set(item, json);
  }
  return json;
}
