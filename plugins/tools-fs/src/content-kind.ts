/**
 * What a file holds, judged from its bytes: an image a model can look at, other binary data, or text, and
 * whether that text is valid UTF-8.
 */
import { isUtf8 } from "node:buffer";

/** The image types models accept, by their magic bytes. */
const IMAGE_SIGNATURES: { mimeType: string; test(bytes: Uint8Array): boolean }[] = [
  { mimeType: "image/png", test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mimeType: "image/jpeg", test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mimeType: "image/gif", test: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    mimeType: "image/webp",
    test: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, i) => bytes[i] === value);
}

/** The image MIME type of `bytes`, or undefined when they are not a png, jpeg, gif or webp image. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
  return IMAGE_SIGNATURES.find((signature) => signature.test(bytes))?.mimeType;
}

/** How many leading bytes decide whether a file is binary; git and ripgrep look at about as many. */
const SNIFF_BYTES = 8000;

/** True when the start of `bytes` holds a NUL byte, which text files do not (git's and ripgrep's rule). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/** Decodes UTF-8 text, dropping a leading byte-order mark. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes);
}

/**
 * True when `bytes` are valid UTF-8. A Latin-1 file or one damaged byte is not: decoding it turns each bad
 * byte into U+FFFD, so such text must never be encoded back over the file.
 */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}

/** What the tools tell the model about a file that is not valid UTF-8 (`path` as shown to it). */
export function notUtf8Note(path: string): string {
  return (
    `${path} is not valid UTF-8 (it may be Latin-1 or another encoding, or hold a damaged ` +
    `byte): bytes that are not UTF-8 are shown as U+FFFD "\u{FFFD}". edit changes only the bytes of ` +
    `the text it matches, so quote text beside them, not them.`
  );
}
