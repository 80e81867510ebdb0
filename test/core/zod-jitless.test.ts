/**
 * The CLI turns zod's compiled fast path off before any schema is built (core/src/cli/zod-jitless.ts): an object
 * schema reads the setting when it is made, so the import must come before the modules that declare schemas.
 */
import { expect, it } from "vitest";
import { z } from "zod";

it("makes zod jitless as the CLI loads, and parses alike", async () => {
  await import("../../core/src/cli/main.ts");
  expect(z.config().jitless).toBe(true);
  const schema = z.object({ a: z.string(), b: z.number().optional() });
  expect(schema.parse({ a: "x", c: 1 })).toEqual({ a: "x" });
  expect(schema.safeParse({ a: 1 }).success).toBe(false);
});
