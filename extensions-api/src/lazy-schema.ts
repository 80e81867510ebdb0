/**
 * A zod schema built on first use. Building a schema is work at module load (each `z.string()`, `.optional()`
 * and `.regex()` is an object with its own initialiser), and keel's CLI bundle loads every module it could
 * need: the schemas of catalogs, locks, distribution manifests and scripts were a third of those a plain
 * `keel -p` built, and it never parses them. `lazySchema(() => z.object({ … }))` describes the shape where it
 * always was and has its exact type, so `z.infer`, `.parse`, `.shape`, `.extend`, composing it into another
 * schema and `instanceof` work as on the schema itself; the schema is built when one of its properties is
 * first read. Not for a schema every run parses anyway: the proxy only adds a step to each access.
 */
import type { z } from "zod";

const lazySchemas = new WeakSet<object>();

/**
 * Whether `value` came from `lazySchema`, answered without building it: the host admits a tool whose
 * `parameters` is one without touching it, so a tool the model is not offered yet (`offered`) builds its schema
 * when it is first offered or called.
 */
export function isLazySchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && lazySchemas.has(value);
}

/** `build()`'s schema, built when first touched; the value returned stands for it everywhere. */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let schema: T | undefined;
  const built = (): T => (schema ??= build());
  const proxy = new Proxy({} as T, {
    get: (_, key) => Reflect.get(built(), key),
    set: (_, key, value) => Reflect.set(built(), key, value),
    has: (_, key) => Reflect.has(built(), key),
    ownKeys: () => Reflect.ownKeys(built()),
    getOwnPropertyDescriptor: (target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(built(), key);
      // A proxy may call a property fixed (`_zod`) only if its target has it too.
      if (descriptor && !descriptor.configurable) Reflect.defineProperty(target, key, descriptor);
      return descriptor;
    },
    defineProperty: (target, key, descriptor) =>
      Reflect.defineProperty(built(), key, descriptor) &&
      (descriptor.configurable !== false || Reflect.defineProperty(target, key, descriptor)),
    deleteProperty: (_, key) => Reflect.deleteProperty(built(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(built()),
  });
  lazySchemas.add(proxy);
  return proxy;
}
