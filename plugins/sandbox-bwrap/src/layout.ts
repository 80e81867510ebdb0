/**
 * From settings to the sandbox's folders: each path made absolute and real, and the ones that do not exist left
 * out and reported (bubblewrap refuses to start on a missing bind source, and a sandbox that does not start
 * would refuse every command). ops-local's allowed roots count too, so what file tools may write, commands may
 * write, and what they may read is visible: a `read-write` root is writable, a `read` root bound read-only.
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

const pathsOf = (roots: readonly AllowedRoot[], access: AllowedRoot["access"]) =>
  roots.filter((r) => r.access === access).map((r) => r.path);

function expandHome(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/** One of ops-local's `allowedRoots` (its settings section, read as this plugin's manifest declares). */
export interface AllowedRoot {
  path: string;
  access: "read" | "read-write";
}

export function planLayout(
  workspace: string,
  settings: SandboxSettings,
  roots: readonly AllowedRoot[] = [],
  home = homedir(),
): PlannedLayout {
  const skipped: string[] = [];
  // `key` undefined: the entry is ops-local's, which reports a missing root itself.
  const existing = (list: readonly string[], key: string | undefined, base: string) =>
    list.flatMap((entry) => {
      const path = resolve(base, expandHome(entry, home));
      if (existsSync(path)) return [realpathSync.native(path)];
      if (key) skipped.push(`"${key}" names ${path}, which does not exist, so it was left out`);
      return [];
    });
  workspace = realpathSync.native(workspace);
  const realHome = existsSync(home) && home !== "/" ? realpathSync.native(home) : undefined;
  const git = join(workspace, ".git");
  return {
    layout: {
      workspace,
      home: realHome,
      writable: [
        ...existing(settings.writable, "sandbox-bwrap.writable", workspace),
        ...existing(pathsOf(roots, "read-write"), undefined, workspace),
      ],
      dotfiles: realHome ? existing(settings.dotfiles, "sandbox-bwrap.dotfiles", realHome) : [],
      readable: existing(pathsOf(roots, "read"), undefined, workspace),
      readOnly: settings.gitReadOnly && existsSync(git) ? [git] : [],
      network: settings.network,
    },
    skipped,
  };
}
