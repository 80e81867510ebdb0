#!/usr/bin/env node
// Fails when a source line is wider than the style's 120 columns, or a source file is longer than 300 lines.
// Prettier keeps code within printWidth but never breaks a string literal, a comment or a regular expression, so
// those are checked here. The files already longer are listed in scripts/long-files.json with the length each
// may reach; that list may only shrink: a listed file may not grow past its number, and an entry whose file is
// back within 300 lines (or gone) must be removed. `node scripts/check-lines.js [root]` checks another tree.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const WIDTH = 120;
const LENGTH = 300;
const ROOT = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL("..", import.meta.url));
const ALLOW_LIST = "scripts/long-files.json";
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

const allowPath = join(ROOT, ALLOW_LIST);
/** @type {Record<string, number>} */
const allowed = existsSync(allowPath) ? JSON.parse(readFileSync(allowPath, "utf8")) : {};

/** @type {string[]} */
const wide = [];
/** @type {string[]} */
const long = [];
/** @type {Set<string>} */
const seen = new Set();
for (const file of sources(ROOT)) {
  const name = relative(ROOT, file).split(sep).join("/");
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    // Columns as an editor counts them: code points, not UTF-16 units.
    const width = [...line].length;
    if (width > WIDTH) wide.push(`${name}:${i + 1}: ${width} columns`);
  });
  // A file ending in a newline has that many lines, as `wc -l` counts.
  const count = lines.length - (lines.at(-1) === "" ? 1 : 0);
  seen.add(name);
  const limit = allowed[name];
  if (limit === undefined && count > LENGTH) long.push(`${name}: ${count} lines`);
  else if (limit !== undefined && count > limit) long.push(`${name}: ${count} lines, more than the ${limit} listed`);
  else if (limit !== undefined && count <= LENGTH) long.push(`${name}: ${count} lines now; remove it from the list`);
}
for (const name of Object.keys(allowed))
  if (!seen.has(name)) long.push(`${name}: listed in ${ALLOW_LIST} but not a source file; remove it`);

if (wide.length > 0)
  console.error(
    `${wide.length} source line(s) are over ${WIDTH} columns. Wrap them: split a string literal by ` +
      `concatenation ("a " + "b"), a comment over two lines, a regular expression with new RegExp(...source).`,
  );
for (const problem of wide) console.error(`  ${problem}`);
if (long.length > 0)
  console.error(
    `${long.length} source file(s) break the ${LENGTH}-line rule. Split a long file by concern (one concept per ` +
      `module); ${ALLOW_LIST} lists the older long files, and it may only shrink.`,
  );
for (const problem of long) console.error(`  ${problem}`);
if (wide.length + long.length > 0) process.exit(1);
