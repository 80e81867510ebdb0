/**
 * Ids from the host's pool of kernel random bytes (extensions-api/src/random-id.ts), which spares a start loading
 * node:crypto: the shape `crypto.randomUUID` gives, and no repeats across many pool refills.
 */
import { expect, it } from "vitest";
import { randomHex, randomUUID } from "@keel/extensions-api/random-id";

it("gives version 4 UUIDs and hex of the asked length, without repeats across pool refills", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 3000; i++) {
    const id = randomUUID();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    seen.add(id);
  }
  // 3,000 UUIDs are 48 KB: the 4 KB pool was refilled a dozen times, and no bytes were handed out twice.
  expect(seen.size).toBe(3000);
  const hex = new Set(Array.from({ length: 1000 }, () => randomHex(8)));
  expect([...hex].every((h) => /^[0-9a-f]{16}$/.test(h))).toBe(true);
  expect(hex.size).toBe(1000);
  // Not all zero or constant: every hex digit turns up.
  expect(new Set([...hex].join("")).size).toBe(16);
});
