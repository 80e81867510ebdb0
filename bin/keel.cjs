#!/usr/bin/env -S node --max-semi-space-size=1
// The `keel` command: keel's default coding-agent distribution (the `keelDistribution` field of
// ../package.json) run by the kernel's bundled CLI with a code cache. CommonJS, so that Node's ES module loader
// is never started; `--version` answers with one synchronous write before anything else is loaded (process.stdout
// would load the stream machinery). The young generation is kept at 1 MB per semi-space (V8 grows it to 8 MB and
// more, nearly all garbage at peak): a 20-turn run peaks ~5 MB lower, which every fork of a tool command copies
// less of. Only a shebang can set that early enough (`v8.setFlagsFromString` at run time does not resize the
// heap), so `node bin/keel.cjs` runs without it; every Node line must accept it, also one keel refuses with a
// message of its own (test/e2e/node-lines.test.ts), and `keel dist build`'s launchers carry the same line
// (test/e2e/distributions.test.ts compares them, and the V8 flag below).
"use strict";
const { readFileSync, writeSync } = require("node:fs");
const { join } = require("node:path");

const args = process.argv.slice(2);
const packageJson = join(__dirname, "..", "package.json");
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const text = `${JSON.parse(readFileSync(packageJson, "utf8")).version}\n`;
  try {
    writeSync(1, text);
  } catch {
    process.stdout.write(text); // a non-blocking pipe that is full (EAGAIN): let the stream wait for it
  }
} else {
  // TurboFan optimises a function after 7x its default invocations: a run that waits on a model most of its life
  // rarely repays an optimising compile (docs/design/node-lines.md: a 20-turn run peaks ~5 MB lower). Set first:
  // set in the launcher, after this file, it saved nothing. Not in the shebang, where Node 20 rejects it before the
  // launcher can say which Node keel needs; nor on Node 20 here, which would print "unrecognized flag".
  const line = Number(process.versions.node.split(".")[0]);
  if (line >= 22) require("node:v8").setFlagsFromString("--invocation-count-for-turbofan=21000");
  const { exitAfterFlush, launch } = require(launchFile());
  launch(args, { distributionFile: packageJson }).then(exitAfterFlush);
}

// `@keel/core/launch` as the file its package.json's `exports` names for `require`, in the first node_modules
// folder Node's search finds the package in: Node resolves `exports` with its ES module resolver, four of its own
// modules compiled on every start for this one name. Any other shape goes to Node's resolver.
function launchFile() {
  // This file's node_modules search path, in Node's order (typed by TypeScript's checkJs as a bare `{ exports }`).
  const { paths } = /** @type {NodeJS.Module} */ (/** @type {unknown} */ (module));
  for (const folder of paths) {
    const core = join(folder, "@keel", "core");
    let target;
    try {
      target = JSON.parse(readFileSync(join(core, "package.json"), "utf8")).exports?.["./launch"]?.require;
    } catch {
      continue;
    }
    return typeof target === "string" && target.startsWith("./") ? join(core, target) : "@keel/core/launch";
  }
  return "@keel/core/launch";
}
