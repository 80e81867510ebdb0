#!/usr/bin/env node
// The `keel` command: keel's default coding-agent distribution (the `keelDistribution` field of
// ../package.json) run by the kernel's bundled CLI with a code cache. CommonJS, so that Node's ES module loader
// is never started (~6 ms); `--version` answers with one synchronous write before anything else is loaded
// (process.stdout would load the stream machinery, another ~6 ms).
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
  const { exitAfterFlush, launch } = require("@keel/core/launch");
  launch(args, { distributionFile: packageJson }).then(exitAfterFlush);
}
