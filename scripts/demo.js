#!/usr/bin/env node
// The demo: keel's default distribution fixes a bug in a throwaway project. A scripted model plays the
// turns (no API key needed), but every tool call is real: it reads the file, edits it, runs the test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const script = fileURLToPath(new URL("./demo-script.json", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "keel-demo-"));
writeFileSync(join(work, "math.js"), "export function add(a, b) {\n  return a - b;\n}\n");
writeFileSync(
  join(work, "math.test.js"),
  'import { add } from "./math.js";\nif (add(2, 3) !== 5) {\n  console.error(`FAIL add(2, 3) = ' +
    '${add(2, 3)}, expected 5`);\n  process.exit(1);\n}\nconsole.log("PASS add(2, 3) = 5");\n',
);
writeFileSync(join(work, "package.json"), '{ "type": "module" }\n');

console.log(`$ keel -p "Fix add() in math.js and run the tests"   (in ${work})\n`);
const settings = JSON.stringify({ "provider-scripted": { script }, "ui-print": { progress: "always" } });
const run = spawnSync(
  process.execPath,
  [
    bin,
    "-p",
    "Fix add() in math.js and run the tests",
    "--cwd",
    work,
    "--provider",
    "scripted",
    "--settings",
    settings,
  ],
  { stdio: "inherit", env: { ...process.env, KEEL_HOME: process.env.KEEL_HOME ?? join(work, ".keel-home") } },
);
console.log(`\nmath.js is now:\n${readFileSync(join(work, "math.js"), "utf8")}`);
process.exit(run.status ?? 1);
