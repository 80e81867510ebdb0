// A rolldown plugin for keel's CommonJS builds (the CLI's bundle, core/rolldown.config.mjs, and the plugins' entries,
// scripts/build-plugins.mjs): the Node builtins below are required on first use instead of when the file loads.
// A bundler hoists every `import … from "node:x"` of the modules it joins to the top of the file, so one function
// that needs `child_process` or `readline` made every start pay for it (child_process ~2 ms with dgram, readline
// ~0.7 ms, fs/promises ~3 ms, crypto ~4.5 ms on the 2-core machine, each measured after node:http). A statement
// `let x = require("node:child_process");` (rolldown's form for a module's named imports, and commander's own)
// becomes a proxy that requires the builtin when a property is first read; the code reads its properties at call
// time (`(0, x.spawn)(…)`), so behaviour is unchanged. Only this exact form is rewritten, so a
// `__toESM(require(…))` (a default import) stays as it was. test/e2e/print-run-loads.test.ts checks that a text
// answer loads none of them but what it uses.

import { rewriteLazily } from "./lazy-proxy.mjs";

/** Builtins that Node's own start does not load and that keel's code uses only inside functions. */
const LAZY = [
  "assert",
  "child_process",
  "console",
  "crypto",
  "dgram",
  "fs/promises",
  "http",
  "https",
  "net",
  "perf_hooks",
  "readline",
  "readline/promises",
  "stream/promises",
  "worker_threads",
  "zlib",
];

const NAMES = LAZY.map((m) => m.replace("/", "\\/")).join("|");
const STATEMENT = new RegExp(String.raw`^(\s*)(let|const|var) (\w+) = require\((["'])(?:node:)?(${NAMES})\4\);$`, "gm");

/**
 * @returns {import("rolldown").Plugin}
 */
export function lazyBuiltins() {
  return {
    name: "keel-lazy-builtins",
    renderChunk: (code) =>
      rewriteLazily(
        code,
        STATEMENT,
        (_, indent, kind, name, _quote, id) => `${indent}${kind} ${name} = __keelLazy(() => require("node:${id}"));`,
      ),
  };
}
