#!/usr/bin/env node
// Fails when a source line is wider than the style's 120 columns. Prettier keeps code within printWidth but
// never breaks a string literal, a comment or a regular expression, so those are checked here.
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const LIMIT = 120;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SOURCE = new Set([".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"]);
// Installed or generated trees, and folders the benches fill at run time.
const SKIP = new Set(["node_modules", "dist", "coverage", ".build", ".git", ".work", ".agents", ".results"]);

/** @param {string} dir @returns {Generator<string>} */
function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (SOURCE.has(extname(entry.name))) yield path;
  }
}

/** @type {string[]} */
const problems = [];
for (const file of sources(ROOT)) {
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    // Columns as an editor counts them: code points, not UTF-16 units.
    const width = [...line].length;
    if (width > LIMIT) problems.push(`${relative(ROOT, file)}:${i + 1}: ${width} columns`);
  });
}

if (problems.length > 0) {
  console.error(
    `${problems.length} source line(s) are over ${LIMIT} columns. Wrap them: split a string literal by ` +
      `concatenation ("a " + "b"), a comment over two lines, a regular expression with new RegExp(...source).`,
  );
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
