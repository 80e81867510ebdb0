// A rolldown plugin for the CLI's bundle (core/rolldown.config.mjs): a CommonJS package bundled into it runs its
// top level when a property of its import is first read, not when the bundle loads. Rolldown joins a CommonJS
// module as a function and calls it where an ES module imports it, at the top of the file: semver's modules
// (imported by the plugin API check and the activation order, which call it only for a range other than `^X.Y.Z`
// or a `dependsOn`) built 86 regular expressions on every start. A statement
// `var import_x = /* @__PURE__ */ __toESM(require_x(), 1);` (rolldown's form for a default or namespace import of
// a bundled CommonJS module) becomes a proxy that makes it on first read; the code reads its properties at call
// time (`(0, import_satisfies.default)(…)`), so behaviour is unchanged. A package whose import is destructured at
// the top (commander, tapable) is made at once, as before. test/e2e/lazy-commonjs.test.ts checks the form in the
// bundle and that the binary still decides ranges with semver.

import { rewriteLazily } from "./lazy-proxy.mjs";

const STATEMENT = /^var (import_\w+) = \/\* @__PURE__ \*\/ (__toESM\(require_\w+\(\), 1\));$/gm;

/**
 * @returns {import("rolldown").Plugin}
 */
export function lazyCommonJs() {
  return {
    name: "keel-lazy-commonjs",
    renderChunk: (code) =>
      rewriteLazily(code, STATEMENT, (_, name, make) => `var ${name} = __keelLazy(() => ${make});`),
  };
}
