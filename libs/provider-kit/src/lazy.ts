/**
 * A value made on its first read and kept. Each decoder declares its event schemas through it, as one group: zod
 * builds a schema's objects when the schema is declared (the three formats' were ~260 of the ~400 the kit built as
 * it loaded), and a run speaks one format, whose events it first reads with the first reply. Not
 * `@keel/extensions-api/lazy-schema`: that proxy stands in for one exported schema and adds a step to every access,
 * and the decoders read these on every event.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
