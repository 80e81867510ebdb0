/**
 * The supported Node lines (scripts/node-lines.mjs, installed by `npm test` before the suite) and the Node flags
 * keel's launcher passes in its shebang, for tests that start keel as npm links it on each line.
 */
import { readFileSync } from "node:fs";
import { nodeLines, missingLines, type NodeLine } from "../../scripts/node-lines.mjs";
import { KEEL_BIN } from "./keel-cli.ts";

export type { NodeLine };

/** The lines, failing with how to install them when one is missing. */
export function supportedLines(): NodeLine[] {
  const missing = missingLines();
  if (missing.length > 0) {
    const versions = missing.map((line) => line.version).join(", ");
    throw new Error(`Node ${versions} not installed: run \`node scripts/node-lines.mjs install\` (npm test does)`);
  }
  return nodeLines();
}

/** The options after `node` on the first line of `file` (a launcher: `#!/usr/bin/env -S node …`). */
export function launcherFlags(file = KEEL_BIN): string[] {
  const first = readFileSync(file, "utf8").split("\n", 1)[0]!;
  const match = /^#!\/usr\/bin\/env -S node((?: --[\w-]+(?:=\S+)?)*)$/.exec(first);
  if (!match) throw new Error(`${file} does not start with "#!/usr/bin/env -S node [--flag…]": ${first}`);
  return match[1]!.split(" ").filter(Boolean);
}
