/**
 * From settings to the sandbox's folders: each path made absolute and real, and the ones that do not exist left
 * out and reported (bubblewrap refuses to start on a missing bind source, and a sandbox that does not start
 * would refuse every command).
 */
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SandboxLayout } from "./bwrap-args.ts";
import type { SandboxSettings } from "./settings.ts";

export interface PlannedLayout {
  layout: SandboxLayout;
  /** Settings entries left out, each with why. */
  skipped: string[];
}

function expandHome(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

export function planLayout(workspace: string, settings: SandboxSettings, home = homedir()): PlannedLayout {
  const skipped: string[] = [];
  const existing = (list: readonly string[], key: string, base: string) =>
    list.flatMap((entry) => {
      const path = resolve(base, expandHome(entry, home));
      if (existsSync(path)) return [realpathSync.native(path)];
      skipped.push(`"sandbox-bwrap.${key}" names ${path}, which does not exist, so it was left out`);
      return [];
    });
  workspace = realpathSync.native(workspace);
  const realHome = existsSync(home) && home !== "/" ? realpathSync.native(home) : undefined;
  const git = join(workspace, ".git");
  return {
    layout: {
      workspace,
      home: realHome,
      writable: existing(settings.writable, "writable", workspace),
      dotfiles: realHome ? existing(settings.dotfiles, "dotfiles", realHome) : [],
      readOnly: settings.gitReadOnly && existsSync(git) ? [git] : [],
      network: settings.network,
    },
    skipped,
  };
}
