/**
 * The folders a local backend may touch: the workspace (read-write) and the allowed roots from settings. Each
 * is known by the path it was given and by its real path, because a workspace reached through a symlink
 * (`/tmp` on macOS) is still the workspace.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { isWithin } from "@keel/extensions-api/paths";
import type { AllowedRoot } from "./settings.ts";

export interface Root {
  /** As configured, absolute and normalised. */
  path: string;
  /** After following symlinks. */
  real: string;
  writable: boolean;
}

export class Roots {
  readonly workspace: Root;
  readonly all: Root[];
  /** Configured roots that do not exist, so were left out; the plugin reports them. */
  readonly missing: string[] = [];

  constructor(cwd: string, extra: AllowedRoot[] = []) {
    const workspacePath = resolve(cwd);
    this.workspace = { path: workspacePath, real: realpathSync.native(workspacePath), writable: true };
    this.all = [this.workspace];
    for (const root of extra) {
      const path = resolve(workspacePath, root.path.startsWith("~/") ? `${homedir()}${root.path.slice(1)}` : root.path);
      try {
        this.all.push({ path, real: realpathSync.native(path), writable: root.access === "read-write" });
      } catch {
        this.missing.push(path);
      }
    }
  }

  /** The most specific root `abs` lies in by its text, before any symlink is followed. */
  byText(abs: string): Root | undefined {
    return this.mostSpecific((root) => isWithin(root.path, abs) || isWithin(root.real, abs));
  }

  /** The most specific root a real (symlink-free) path lies in. */
  byReal(real: string): Root | undefined {
    return this.mostSpecific((root) => isWithin(root.real, real));
  }

  /** Words for error messages: "the workspace /w" or "the workspace /w and the allowed roots /a, /b". */
  describe(): string {
    const extra = this.all.slice(1).map((r) => r.path);
    return extra.length === 0
      ? `the workspace ${this.workspace.path}`
      : `the workspace ${this.workspace.path} and the allowed roots ${extra.join(", ")}`;
  }

  private mostSpecific(test: (root: Root) => boolean): Root | undefined {
    let best: Root | undefined;
    for (const root of this.all) if (test(root) && (!best || root.real.length > best.real.length)) best = root;
    return best;
  }
}
