/**
 * The values of the boot flags, checked before anything runs: a `--settings` that is not JSON or names no
 * file, and a `--plugin` that is not a plugin folder, are errors that stop the command (exit 2) instead of
 * warnings a run goes past.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseSettingsArg, type SettingsObject } from "../settings/layers.js";
import type { BootArgs } from "./boot-args.js";

export type BootValues =
  { ok: true; extraSettings: SettingsObject[]; pluginPaths: string[] } | { ok: false; errors: string[] };

/** `--settings` files resolve against the workspace (`cwd`); `--plugin` paths against the current folder. */
export function readBootValues(boot: BootArgs, cwd: string): BootValues {
  const errors: string[] = [];
  const extraSettings = boot.settings.map((s) => parseSettingsArg(s, cwd, errors)).filter((s) => s !== undefined);
  const pluginPaths = boot.plugins.map((path) => resolve(path));
  boot.plugins.forEach((path, i) => {
    const problem = pluginPathProblem(pluginPaths[i]!);
    if (problem) errors.push(`--plugin ${path}: ${problem}`);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, extraSettings, pluginPaths };
}

function pluginPathProblem(path: string): string | undefined {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return `there is no such folder (${path}).`;
  }
  if (isDirectory) return undefined;
  return (
    `is a file, but a plugin is a folder with a package.json whose "keel" field is its ` +
    `manifest. Put the file in a folder with one (see docs/writing-plugins.md).`
  );
}
