/**
 * Which properties of an object cross the boundary (wire.ts): its own, and for a class instance (an operations
 * backend) its methods, bound to it, and its getters' values, read now.
 */

/** Keys that never cross: synchronous renderers run where the UI is, and a confined plugin's cannot. */
const LOCAL_ONLY_KEYS = new Set(["render"]);

/** Methods bound to their object, the same function each time, so a method keeps its `this` and its id. */
export class BoundMethods {
  private readonly bound = new WeakMap<object, Map<string, Function>>();

  of(owner: object, name: string, fn: Function): Function {
    let methods = this.bound.get(owner);
    if (!methods) this.bound.set(owner, (methods = new Map()));
    const known = methods.get(name);
    if (known && (known as { target?: Function }).target === fn) return known;
    const bound = Object.assign(fn.bind(owner), { target: fn });
    methods.set(name, bound);
    return bound;
  }
}

export function crossingEntries(value: Record<string, unknown>, methods: BoundMethods): [string, unknown][] {
  const out = new Map<string, unknown>();
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name === "constructor" || out.has(name) || LOCAL_ONLY_KEYS.has(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(o, name)!;
      if (o !== value && !descriptor.get && typeof descriptor.value !== "function") continue;
      let item: unknown;
      try {
        item = value[name];
      } catch {
        continue; // a getter that throws now (api.runtime before a session) is the layer above's to carry
      }
      out.set(name, typeof item === "function" ? methods.of(value, name, item) : item);
    }
  }
  return [...out];
}
