/** SSE framing for the mock server. */

/** One SSE event as bytes on the wire: optional `event:` line, one `data:` line, blank line. */
export function sseEvent(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${text}\n\n`;
}

/** Splits text into deltas of `size` characters (never splitting a surrogate pair). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

export function argsText(args: string | Record<string, unknown> | undefined): string {
  return typeof args === "string" ? args : JSON.stringify(args ?? {});
}
