/**
 * The ways the local backend starts a command, for tests that must hold on all: a spawn from keel (spawn.ts), and
 * the long-lived shell helper (shell-host.ts) forking each command's shell when it comes or running it in the
 * spare it forked ahead of it (every command after a runner's first: the same shell, environment and folder).
 * Options the helper does not take (stdin to feed) belong to the spawn's own tests.
 */
import type { ProcessHandle } from "@keel/extensions-api";
import { afterAll } from "vitest";
import { findPerl, ShellHost } from "../src/shell-host.ts";
import { spawnProcess, type SpawnProcessOptions } from "../src/spawn.ts";

type Options = Omit<SpawnProcessOptions, "stdin" | "keepStdinOpen">;
export type Runner = (command: string, options: Options) => ProcessHandle;

const forking = new ShellHost(findPerl(), undefined, { spares: false });
const spares = new ShellHost(findPerl());
afterAll(() => {
  forking.close();
  spares.close();
});

export const RUNNERS: [string, Runner][] = [
  ["a spawn from keel", spawnProcess],
  ["the long-lived shell, forking each command", (command, options) => forking.run(command, options)],
  ["the long-lived shell's spare shells", (command, options) => spares.run(command, options)],
];
