/**
 * `lazySchema` stands for the schema it builds: nothing is built until the value is used, and then parsing,
 * errors, types, composing, `instanceof` and the object's own keys are the schema's.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";

const shape = () => z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]) }).strict();

describe("lazySchema", () => {
  it("builds the schema on first use, once", () => {
    let builds = 0;
    const schema = lazySchema(() => (builds++, shape()));
    expect(builds).toBe(0);
    expect(schema.parse({ name: "a" })).toEqual({ name: "a", tags: [] });
    schema.parse({ name: "b" });
    expect(builds).toBe(1);
  });

  it("has the built schema's type, result and errors", () => {
    const schema = lazySchema(shape);
    expectTypeOf<z.infer<typeof schema>>().toEqualTypeOf<z.infer<ReturnType<typeof shape>>>();
    expectTypeOf(schema).toEqualTypeOf<ReturnType<typeof shape>>();
    expect(schema.safeParse({ name: "", extra: 1 }).error?.issues).toEqual(
      shape().safeParse({ name: "", extra: 1 }).error?.issues,
    );
  });

  it("composes, extends and converts as the built schema does", () => {
    const schema = lazySchema(shape);
    expect(z.array(schema).parse([{ name: "a" }])).toEqual([{ name: "a", tags: [] }]);
    expect(schema.extend({ n: z.number() }).parse({ name: "a", n: 1 })).toEqual({ name: "a", tags: [], n: 1 });
    expect(Object.keys(schema.shape)).toEqual(["name", "tags"]);
    expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(shape()));
    expect(schema instanceof z.ZodObject).toBe(true);
    expect(Object.getPrototypeOf(schema)).toBe(Object.getPrototypeOf(shape()));
  });

  it("lists and describes the built schema's own properties", () => {
    const schema = lazySchema(shape);
    expect(Object.keys(schema)).toEqual(Object.keys(shape()));
    expect("_zod" in schema).toBe(true);
    expect(Object.getOwnPropertyDescriptor(schema, "_zod")?.configurable).toBe(false);
  });
});
