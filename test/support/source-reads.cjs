// Preloaded with `node --require` by test/e2e/lazy-policies.test.ts: notes every plugin source file the
// process reads (jiti reads each module's source before it runs it, cached transform or not) and writes the
// list to $KEEL_TEST_READS when the process exits. With $KEEL_TEST_READS_UNDER, every file read under that
// folder is noted too.
const fs = require("node:fs");
const read = fs.readFileSync;
const seen = new Set();
const under = process.env.KEEL_TEST_READS_UNDER;
fs.readFileSync = function (path, ...rest) {
  if (typeof path === "string" && path.includes("/plugins/") && path.includes("/src/")) seen.add(path);
  else if (typeof path === "string" && under && path.startsWith(under)) seen.add(path);
  return read.call(this, path, ...rest);
};
process.on("exit", () => fs.writeFileSync(process.env.KEEL_TEST_READS, [...seen].join("\n")));
