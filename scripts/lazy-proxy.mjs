// The proxy behind keel's lazy rewrites of a build's top-level statements (lazy-builtins.mjs, lazy-commonjs.mjs): it
// stands for a module's exports and makes them on the first property read. Appended once to a chunk that uses it: a
// function declaration is hoisted, so the rewritten statements above it can call it.
const HELPER = `
function __keelLazy(make) {
  let real;
  const load = () => (real ??= make());
  return new Proxy({}, {
    get: (_, key) => load()[key],
    has: (_, key) => key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
`;

/**
 * `code` with each match of `statement` replaced by `rewrite(...match)`, which calls `__keelLazy(make)`, and the
 * helper appended once; a rolldown `renderChunk` result, or null when nothing matched.
 * @param {string} code
 * @param {RegExp} statement a global, multiline pattern
 * @param {(...match: string[]) => string} rewrite
 */
export function rewriteLazily(code, statement, rewrite) {
  let changed = false;
  const out = code.replace(statement, (...match) => {
    changed = true;
    return rewrite(...match);
  });
  if (!changed) return null;
  return { code: out.includes("function __keelLazy(make)") ? out : out + HELPER, map: null };
}
