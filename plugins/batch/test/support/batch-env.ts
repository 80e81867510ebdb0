/**
 * A batch's surroundings for tests: a folder with a workspace, a KEEL_HOME, a tasks file written from objects,
 * each task's answer scripted in its own settings; and the results file read back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEEL_BIN } from "../../../../test/support/keel-cli.ts";
import { tempDir } from "../../../../test/support/plugin-fixtures.ts";
import type { TaskResult } from "../../src/result.ts";

export interface BatchEnv {
  /** The folder of the tasks file (relative workspaces start here). */
  root: string;
  home: string;
  /** A workspace folder the tasks may share, `w`. */
  workspace: string;
}

export function batchEnv(): BatchEnv {
  const root = tempDir("keel-batch-");
  const home = join(root, "home");
  const workspace = join(root, "w");
  mkdirSync(home);
  mkdirSync(workspace);
  return { root, home, workspace };
}

/** Settings that make the scripted model play `turns`. */
export const scripted = (turns: unknown[]) => ({ "provider-scripted": { script: turns } });

/** A task in the shared workspace whose model answers `text`. */
export const answering = (id: string, text = `answer ${id}`) => ({
  id,
  prompt: `task ${id}`,
  workspace: "w",
  settings: scripted([{ text, usage: { input: 10, output: 2 } }]),
});

/** Writes the tasks (objects, or raw lines) as `tasks.jsonl` in the env's root; returns its path. */
export function writeTasks(env: BatchEnv, tasks: (object | string)[], name = "tasks.jsonl"): string {
  const file = join(env.root, name);
  writeFileSync(file, tasks.map((t) => (typeof t === "string" ? t : JSON.stringify(t))).join("\n") + "\n");
  return file;
}

export function readResults(file: string): TaskResult[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TaskResult);
}

/** How many lines each id has. */
export function linesPerId(results: TaskResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) counts[r.id] = (counts[r.id] ?? 0) + 1;
  return counts;
}

export interface Started {
  child: ChildProcess;
  /** What it printed on stderr so far. */
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `keel <args>` in the env's root, without waiting for it (workers, interrupted batches). */
export function startKeel(args: string[], env: BatchEnv, extraEnv: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [KEEL_BIN, ...args], {
    cwd: env.root,
    env: { ...process.env, KEEL_HOME: env.home, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}
