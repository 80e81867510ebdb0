// Preloaded with `node --require` by the e2e tests that check what a run loads (lazy-policies, print-run-loads,
// mcp's start path): notes every plugin, library and dependency source file the process reads or requires (jiti
// reads each module's source before it runs it, cached transform or not; a CommonJS dependency goes through
// Module._load) and writes the list, one absolute path a line, to $KEEL_TEST_READS when the process exits.
// With $KEEL_TEST_READS_UNDER, every file read under that folder is noted too; with $KEEL_TEST_BUILTINS, the Node
// builtins the process loaded (public and internal, from process.moduleLoadList) are written there; with
// $KEEL_TEST_SCHEMAS, the keys of every zod object schema the process built (sorted, comma-joined), one a line,
// noted through zod's hook for each schema built (its global config's `postProcessor`, set before zod loads).
const fs = require("node:fs");
const Module = require("node:module");
const read = fs.readFileSync;
const seen = new Set();
const under = process.env.KEEL_TEST_READS_UNDER;
const watched = (path) =>
  typeof path === "string" &&
  (path.includes("/node_modules/") ||
    /\/(plugins|libs)\/[^/]+\/src\//.test(path) ||
    path.includes("/dist/") ||
    (under !== undefined && under !== "" && path.startsWith(under)));
fs.readFileSync = function (path, ...rest) {
  if (watched(path)) seen.add(path);
  return read.call(this, path, ...rest);
};
const load = Module._load;
Module._load = function (request, parent, ...rest) {
  try {
    const file = Module._resolveFilename(request, parent, ...rest);
    if (watched(file)) seen.add(file);
  } catch {
    // not resolvable from here (a builtin, or jiti's own resolution): the real load reports it
  }
  return load.call(this, request, parent, ...rest);
};
const schemas = [];
if (process.env.KEEL_TEST_SCHEMAS) {
  const config = (globalThis.__zod_globalConfig ??= {});
  config.postProcessor = (schema) => {
    const def = schema._zod.def;
    if (def.type === "object") schemas.push(Object.keys(def.shape).sort().join(","));
  };
}
process.on("exit", () => {
  fs.writeFileSync(process.env.KEEL_TEST_READS, [...seen].join("\n"));
  if (process.env.KEEL_TEST_SCHEMAS) fs.writeFileSync(process.env.KEEL_TEST_SCHEMAS, schemas.join("\n"));
  const builtins = process.moduleLoadList.filter((name) => name.startsWith("NativeModule "));
  if (process.env.KEEL_TEST_BUILTINS)
    fs.writeFileSync(process.env.KEEL_TEST_BUILTINS, builtins.map((name) => name.slice(13)).join("\n"));
});
