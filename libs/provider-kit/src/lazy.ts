/**
 * A value made on its first read and kept. The kit declares its zod schemas through it: zod builds a schema's
 * objects when the schema is declared (~400 for the three wire formats, their settings and retries; ~20 ms of a
 * loaded 1-turn profile), and a run speaks one format, whose events it first reads with the first reply.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
