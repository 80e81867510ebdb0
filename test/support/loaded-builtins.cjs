// Preloaded with `node --require` by test/e2e/start-path.test.ts: writes the Node internals the process loaded
// (process.moduleLoadList) and the flags Node runs with (process.execArgv) as JSON to $KEEL_TEST_BUILTINS when it
// exits, so a test can tell whether a start brought up Node's ES module loader or the stream machinery, and
// whether the shebang's flags applied.
const { writeFileSync } = require("node:fs");

process.on("exit", () =>
  writeFileSync(
    process.env.KEEL_TEST_BUILTINS,
    JSON.stringify({ modules: process.moduleLoadList, execArgv: process.execArgv }),
  ),
);
