// What the machine was doing during the run: its idle share from /proc/stat, and how much of the busy time was not
// this bench and the agents it ran (its own and its waited-for children's CPU from /proc/self/stat).
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

/** The machine as the README names it. */
export function describeMachine() {
  return { nproc: availableParallelism(), cpu: cpus()[0]?.model ?? "unknown", node: process.version };
}
