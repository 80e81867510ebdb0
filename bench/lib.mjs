// Shared helpers for the benchmarks: timing child processes, medians, and printing a table.
import { spawn } from "node:child_process";

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time in ms of one child process, from spawn to exit. */
export function timeProcess(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: "ignore", ...options });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 || options.allowFail ? resolve(performance.now() - start) : reject(new Error(`${command} ${args.join(" ")} exited ${code}`))));
  });
}

export function printTable(title, rows) {
  console.log(`\n## ${title}\n`);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((c, j) => String(c).padEnd(widths[j])).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  }
}

export const ms = (v) => `${v.toFixed(1)} ms`;
export const ratio = (v, base) => `${(v / base).toFixed(2)}×`;
