/**
 * What tests of the long-lived shell helper look at from outside: a backend over a temp workspace (with a `sub`
 * folder) that ends with the test file, the helper's pid as a command prints it, and the helper's spare shells.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createLocalOps } from "../src/local-ops.ts";
import { SPARE_WRAPPER } from "../src/shell-helper-spare.ts";
import { tempFolder } from "../../../test/support/workspace.ts";
import { until } from "../../../test/support/until.ts";

/** A local backend over a new temp workspace holding `sub/`; both go after the test file. */
export function helperBackend(prefix: string) {
  const cwd = tempFolder(prefix).path;
  mkdirSync(join(cwd, "sub"));
  const ops = createLocalOps({ cwd });
  afterAll(() => {
    ops.close();
    rmSync(cwd, { recursive: true, force: true });
  });
  return { cwd, ops };
}

/** A command that prints its helper's pid (its shell's parent), which `helperOf` reads back. */
export const HELPER_PID = "echo helper=$PPID";
export const helperOf = (text: string) => Number(/helper=(\d+)/.exec(text)![1]);

/**
 * The helper's children that are spare shells waiting for a command: their command line is the spare's
 * wrapper, and they still hold fd 3, which the wrapper closes once the command came.
 */
export function sparesOf(helper: number): number[] {
  const children = readFileSync(`/proc/${helper}/task/${helper}/children`, "latin1").split(" ").filter(Boolean);
  return children.map(Number).filter((pid) => {
    try {
      const waiting = existsSync(`/proc/${pid}/fd/3`);
      return waiting && readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[2] === SPARE_WRAPPER;
    } catch {
      return false; // gone
    }
  });
}

/** The helper's spare, once it has made one. */
export async function spareOf(helper: number): Promise<number> {
  await until(() => sparesOf(helper).length === 1);
  return sparesOf(helper)[0]!;
}
