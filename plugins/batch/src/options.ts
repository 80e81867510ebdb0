/**
 * The command line of `keel batch` and `keel worker`, checked before anything runs: numbers, the queue's URL,
 * and the main command's flags every task gets (`--provider`, `--model`, `--thinking`, `--permission-mode`,
 * `--settings`, whose files are read here so that a worker elsewhere gets their content).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ForwardedFlags } from "./job.ts";
import type { Budget } from "./task.ts";

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A whole number ≥ `min` given as `--<flag>`, or `fallback` when absent. */
export function wholeNumber(
  flag: string,
  value: unknown,
  fallback: number | undefined,
  min = 1,
): Checked<number | undefined> {
  if (value === undefined) return { ok: true, value: fallback };
  const n = Number(value);
  if (typeof value === "string" && /^\d+$/.test(value.trim()) && n >= min) return { ok: true, value: n };
  return { ok: false, problem: `--${flag} must be a whole number of at least ${min} (got ${JSON.stringify(value)})` };
}

export function queueUrl(value: unknown): Checked<string | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  if (typeof value === "string" && /^rediss?:\/\/./.test(value)) return { ok: true, value };
  return { ok: false, problem: `--queue must be a redis:// or rediss:// URL (got ${JSON.stringify(value)})` };
}

/** The budget flags: what a task gets when its line sets none. */
export function defaultBudget(options: Record<string, unknown>): Checked<Budget> {
  const budget: Budget = {};
  for (const [key, flag] of [
    ["turns", "max-turns"],
    ["tokens", "max-tokens"],
    ["seconds", "max-seconds"],
  ] as const) {
    const checked = wholeNumber(flag, options[flagKey(flag)], undefined);
    if (!checked.ok) return checked;
    if (checked.value !== undefined) budget[key] = checked.value;
  }
  return { ok: true, value: budget };
}

export function forwardedFlags(options: Record<string, unknown>): ForwardedFlags {
  const flags: ForwardedFlags = {};
  for (const flag of ["provider", "model", "thinking", "permission-mode"] as const) {
    const value = options[flagKey(flag)];
    if (typeof value === "string") flags[flag] = value;
  }
  return flags;
}

/** Each `--settings` as an object: inline JSON, or a JSON file relative to `cwd`. */
export function settingsLayers(value: unknown, cwd: string): Checked<Record<string, unknown>[]> {
  const given = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const layers: Record<string, unknown>[] = [];
  for (const arg of given.map(String)) {
    const inline = arg.trim().startsWith("{");
    let parsed: unknown;
    try {
      parsed = JSON.parse(inline ? arg : readFileSync(resolve(cwd, arg.trim()), "utf8"));
    } catch (error) {
      return { ok: false, problem: `--settings ${inline ? "(inline)" : arg}: ${(error as Error).message}` };
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return { ok: false, problem: `--settings ${inline ? "(inline)" : arg}: must be a JSON object` };
    layers.push(parsed as Record<string, unknown>);
  }
  return { ok: true, value: layers };
}

/** The key commander gives `--<flag>`'s value. */
const flagKey = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
