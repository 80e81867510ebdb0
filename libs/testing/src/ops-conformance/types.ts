/**
 * What a backend author hands the operations conformance suite: how to make a fresh world around the backend,
 * what the backend legitimately cannot do (the suite skips exactly those cases, saying why), and the test
 * runner's `describe` and `it`.
 */
import type { Operations } from "@keel/extensions-api";

/**
 * Abilities some backends lack by design; a case that needs one is skipped, visibly, when it is lacking.
 * `signals`: a shell killed by a signal is reported as that signal, told apart from `exit 128+n`.
 */
export type OpsAbility = "symlinks" | "processes" | "race" | "signals";

/** Unconfined hands on the machine where the backend's files are; paths are relative to the world's root. */
export interface WorldFiles {
  /** Writes a file, creating its parent folders. */
  write(path: string, data: string | Uint8Array): Promise<void>;
  /** The file's bytes, or undefined when nothing is there. */
  read(path: string): Promise<Uint8Array | undefined>;
  /** The names in a folder, sorted; an empty list when it does not exist. */
  list(path: string): Promise<string[]>;
  mkdir(path: string): Promise<void>;
  /** Makes a symlink at `path` whose text is `target` (as given: relative or absolute). Only with symlinks. */
  symlink(target: string, path: string): Promise<void>;
  /** Whether anything, even a dangling symlink, is at `path`. */
  exists(path: string): Promise<boolean>;
}

/** An attacker racing the backend: it swaps a folder for a symlink to another and back, nonstop. */
export interface Swapper {
  /** Stops the attacker and puts the real folder back. */
  stop(): Promise<void>;
}

/**
 * One fresh world for one case: a root folder holding `ws/` (the workspace, the backend's `cwd`) and
 * `outside/` next to it, and the backend over `ws/`.
 */
export interface OpsWorld {
  ops: Operations;
  /** The world's root as the backend's machine names it: `<root>/ws` is `ops.cwd` (after symlinks). */
  root: string;
  files: WorldFiles;
  /**
   * Live processes, where the backend runs them, whose environment holds `name=value`. Needed unless the
   * backend lacks processes; every descendant of a command inherits the variable it exported, so "none" means
   * nothing it started survived.
   */
  processesWith?(name: string, value: string): Promise<number[]>;
  /** Starts swapping the folder at `path` for a symlink to `target` (both relative to the root). For `race`. */
  startSwapper?(path: string, target: string): Promise<Swapper>;
  /** Ends the backend and removes the world. */
  dispose(): Promise<void>;
}

export interface OpsConformanceTarget {
  /** Shown in the suite's name: `ops conformance: <name>`. */
  name: string;
  /** Makes a new world; called once per case. */
  setup(): Promise<OpsWorld>;
  /** What the backend cannot do, each with why; the cases that need it are skipped with that reason. */
  lacks?: Partial<Record<OpsAbility, string>>;
  /** Per-case time limit in ms (default 30 000); a slow transport may want more. */
  timeoutMs?: number;
}

/** The runner's functions, as vitest (or a runner with the same signatures) exports them. */
export interface SuiteRunner {
  describe(name: string, body: () => void): void;
  it: {
    (name: string, body: () => Promise<void>, timeoutMs?: number): void;
    skip(name: string, body: () => Promise<void>): void;
  };
}

/** One case of the suite: what it checks, what it needs, and the check (which throws on a failure). */
export interface OpsCase {
  name: string;
  needs?: OpsAbility[];
  run(world: OpsWorld): Promise<void>;
}
