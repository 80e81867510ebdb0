/**
 * Random ids without node:crypto, whose first load costs a start ~5 ms (it loads every cipher, key and
 * certificate module with it) for ids alone. Bytes come from the kernel's CSPRNG, `/dev/urandom`, read 4 KB at
 * a time into a pool (what `crypto.randomUUID` does with OpenSSL's); where there is none (Windows), from
 * `crypto.randomFillSync`. For names and tokens that must not collide, not for secrets a user relies on.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function refill(): void {
  const next = Buffer.allocUnsafe(POOL_BYTES);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      for (let filled = 0; filled < POOL_BYTES;) {
        const read = readSync(fd, next, filled, POOL_BYTES - filled, null);
        if (read <= 0) throw new Error("/dev/urandom ended");
        filled += read;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    randomFillSync(next);
  }
  pool = next;
  used = 0;
}

function take(bytes: number): Buffer {
  if (used + bytes > pool.length) refill();
  const taken = pool.subarray(used, used + bytes);
  used += bytes;
  return taken;
}

/** `bytes` random bytes as lowercase hex (twice as many digits). At most 4,096 bytes. */
export function randomHex(bytes: number): string {
  return take(bytes).toString("hex");
}

/** A random (version 4) UUID, as `crypto.randomUUID` gives. */
export function randomUUID(): string {
  const bytes = take(16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
