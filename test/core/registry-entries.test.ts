/**
 * `Registry.entries()`: the runtime keeps the tools in effect for as long as this array is the same one, so it
 * must change exactly when a contribution comes or goes.
 */
import { describe, expect, it } from "vitest";
import { Registry } from "../../core/src/host/registry.ts";

const owner = (name: string, order: number) => ({ name, version: "1.0.0", order });

describe("a registry's entries", () => {
  it("stay the same array until something is added or removed, and then show it", () => {
    const registry = new Registry<string>(
      { noun: "tool", key: "tools" },
      (declared, by) => `${by.name}:${declared}`,
      () => ({}),
      () => {},
    );
    const empty = registry.entries();
    expect(registry.entries()).toBe(empty);
    const remove = registry.add("read", "first", owner("a", 0));
    const one = registry.entries();
    expect(one).not.toBe(empty);
    expect(one.map((e) => [e.name, e.item])).toEqual([["read", "first"]]);
    expect(registry.entries()).toBe(one);
    registry.add("read", "second", owner("b", 1));
    expect(registry.entries().map((e) => e.name)).toEqual(["read", "b:read"]);
    remove();
    expect(registry.entries().map((e) => [e.name, e.item])).toEqual([["read", "second"]]);
  });
});
