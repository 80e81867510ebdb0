/**
 * How `edit` turns a file's bytes into the text its snippets are matched against, and back, without changing
 * a byte it did not match. Valid UTF-8 is decoded (a byte-order mark kept aside and put back). Anything else
 * (Latin-1, a damaged byte) is matched byte for byte: each byte becomes one character, the model's snippets
 * are turned into their UTF-8 bytes the same way, and the result is written back as those bytes.
 */
import { decodeText, isValidUtf8 } from "./content-kind.ts";

const BOM = "\uFEFF";
const hasBom = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

export interface FileText {
  /** The text snippets are matched in. */
  text: string;
  /** False when the file is not valid UTF-8 and `text` holds one character per byte. */
  utf8: boolean;
  /** A snippet from the model, in the same space as `text`. */
  toMatch(snippet: string): string;
  /** Text of the match space as a person reads it (for the diff). */
  readable(text: string): string;
  /** The bytes to write for `text` (a changed copy of `this.text`). */
  encode(text: string): Uint8Array;
}

export function fileText(bytes: Uint8Array): FileText {
  if (isValidUtf8(bytes)) {
    const bom = hasBom(bytes) ? BOM : "";
    return {
      text: decodeText(bytes),
      utf8: true,
      toMatch: (s) => s,
      readable: (s) => s,
      encode: (s) => Buffer.from(bom + s, "utf8"),
    };
  }
  const asBytes = (s: string) => Buffer.from(s, "latin1");
  return {
    text: Buffer.from(bytes).toString("latin1"),
    utf8: false,
    toMatch: (s) => Buffer.from(s, "utf8").toString("latin1"),
    readable: (s) => decodeText(asBytes(s)),
    encode: asBytes,
  };
}
