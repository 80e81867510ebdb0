/**
 * Turns raw command output into text a model can read: UTF-8 decoded, colour and cursor escapes removed,
 * carriage-return progress bars collapsed to what a terminal would finally show. The log file keeps the raw
 * bytes; only what the model sees is cleaned.
 */

// CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks), and two-byte escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
// Control characters other than tab and newline (carriage returns are handled first).
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Decodes `bytes`; `cutAtStart` when they begin mid-stream, so a split character is dropped, not garbled. */
export function displayText(bytes: Uint8Array, cutAtStart = false): string {
  let start = 0;
  if (cutAtStart) while (start < bytes.length && start < 4 && (bytes[start]! & 0xc0) === 0x80) start++;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start).toString("utf8");
  return clean(text);
}

/** Removes escapes and resolves carriage returns line by line. */
export function clean(text: string): string {
  let out = text.replace(ANSI, "").replace(/\r\n/g, "\n");
  if (out.includes("\r")) out = out.split("\n").map(lastOverwrite).join("\n");
  return out.replace(CONTROL, "");
}

/** What remains visible of a line redrawn with `\r`: its last non-empty segment. */
function lastOverwrite(line: string): string {
  if (!line.includes("\r")) return line;
  const segments = line.split("\r").filter((s) => s.length > 0);
  return segments[segments.length - 1] ?? "";
}
