/**
 * The two ways the local backend starts a command, for tests that must hold on both: a spawn from keel
 * (spawn.ts) and the long-lived shell helper (shell-host.ts). Options the helper does not take (stdin to feed)
 * belong to the spawn's own tests.
 */
import type { ProcessHandle } from "@keel/extensions-api";
import { afterAll } from "vitest";
import { findPerl, ShellHost } from "../src/shell-host.ts";
import { spawnProcess, type SpawnProcessOptions } from "../src/spawn.ts";

type Options = Omit<SpawnProcessOptions, "stdin" | "keepStdinOpen">;
export type Runner = (command: string, options: Options) => ProcessHandle;

const host = new ShellHost(findPerl());
afterAll(() => host.close());

export const RUNNERS: [string, Runner][] = [
  ["a spawn from keel", spawnProcess],
  ["the long-lived shell", (command, options) => host.run(command, options)],
];
