// What the machine was doing during the run: its idle share from /proc/stat, and how much of the busy time was not
// this bench and the agents it ran (its own and its waited-for children's CPU from /proc/self/stat).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";

function sample() {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = cpu[3] + (cpu[4] ?? 0);
  // Fields 14–17 of /proc/self/stat (after the command name): utime, stime, cutime, cstime, in the same ticks.
  const self = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ").map(Number);
  const ours = self[11] + self[12] + self[13] + self[14];
  return { total, idle, ours };
}

/** Starts the clock; `stop()` returns the shares (0–1) over the interval. */
export function watchMachine() {
  const start = sample();
  return {
    stop() {
      const end = sample();
      const total = end.total - start.total || 1;
      const idle = (end.idle - start.idle) / total;
      const others = Math.max(0, 1 - idle - (end.ours - start.ours) / total);
      return { idleShare: idle, othersShare: others };
    },
  };
}

/** The machine as the README names it, and what a page fault costs on it. */
export function describeMachine() {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    pageTouchUs: pageTouchUs(),
  };
}

// Touches one byte of each 4 KB page of 64 MB that no one has touched (a fresh mapping), in a fresh process.
const TOUCH = `const b = Buffer.allocUnsafeSlow(64 << 20); const t = process.hrtime.bigint();
for (let i = 0; i < b.length; i += 4096) b[i] = 1;
process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e3 / (b.length / 4096)));`;

/**
 * Microseconds a first touch of a memory page costs (median of three processes). Machines of one kind differ in
 * it by an order of magnitude (a VM that maps each page through its hypervisor: ~11 µs; bare metal: ~0.2 µs), and
 * a start's time grows with the pages it touches (docs/design/startup.md), so tables from two machines
 * compare only when this is alike.
 */
function pageTouchUs() {
  const runs = [0, 1, 2].map(() => Number(spawnSync(process.execPath, ["-e", TOUCH], { encoding: "utf8" }).stdout));
  return runs.sort((a, b) => a - b)[1];
}
