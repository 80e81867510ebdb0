#!/usr/bin/env node
// npm run bench: runs every bench/*.bench.mjs in turn (startup first) and prints their tables.
// BENCH_ONLY=startup,providers runs a subset.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.env.BENCH_ONLY?.split(",");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => !only || only.includes(f.replace(".bench.mjs", "")))
  .sort((a, b) => (a.startsWith("startup") ? -1 : b.startsWith("startup") ? 1 : a.localeCompare(b)));
let failed = 0;
for (const file of files) {
  console.log(`\n# ${file}`);
  const run = spawnSync(process.execPath, ["--expose-gc", `${dir}/${file}`], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
