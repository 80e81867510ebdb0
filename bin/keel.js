#!/usr/bin/env node
// The `keel` command: keel's default coding-agent distribution (the `keelDistribution` field of
// ../package.json) run by the kernel's bundled CLI with a code cache. `--version` answers before anything
// else is loaded.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${JSON.parse(readFileSync(packageJson, "utf8")).version}\n`);
} else {
  const { exitAfterFlush, launch } = await import("@keel/core/launch");
  exitAfterFlush(await launch(args, { distributionFile: packageJson }));
}
