/**
 * Worlds on this machine, for backends whose files and processes are here (the local machine, a sandbox over
 * it, an SSH server on 127.0.0.1): a temp root with `ws/` and `outside/`, node:fs as the test's own hands,
 * this machine's /proc to find processes, and the folder swapper as the race's attacker.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Operations } from "@keel/extensions-api";
import { startFolderSwapper } from "./folder-swapper.js";
import type { OpsWorld, WorldFiles } from "./types.js";

/** True while `pid` names a process that has not exited (a zombie has: an init that does not reap leaves them). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Live processes of this machine whose environment holds `NAME=value` (a marker a test gave a command). */
export function processesWithEnv(name: string, value: string): number[] {
  const marker = Buffer.from(`${name}=${value}\0`);
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || !isAlive(Number(entry))) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(marker)) out.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** node:fs under `root`. */
export function filesUnder(root: string): WorldFiles {
  const at = (path: string) => join(root, path);
  return {
    async write(path, data) {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), data);
    },
    async read(path) {
      try {
        return new Uint8Array(readFileSync(at(path)));
      } catch {
        return undefined;
      }
    },
    async list(path) {
      return existsSync(at(path)) ? readdirSync(at(path)).sort() : [];
    },
    async mkdir(path) {
      mkdirSync(at(path), { recursive: true });
    },
    async symlink(target, path) {
      symlinkSync(target, at(path));
    },
    async exists(path) {
      try {
        lstatSync(at(path));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** A new temp root (its real path) holding empty `ws/` and `outside/`. */
export function makeWorldRoot(prefix = "keel-ops-conformance-"): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  mkdirSync(join(root, "ws"));
  mkdirSync(join(root, "outside"));
  return root;
}

/**
 * A world on this machine around the backend `create` makes over `<root>/ws` (this machine's path); `close` ends
 * it (after each case). `root` defaults to a new temp root. `seenAs`: the root's path as the backend names it,
 * when it sees this machine's folder under another (a container's bind mount); then its `ws` is `ops.cwd`.
 */
export async function thisMachineWorld(
  create: (cwd: string) => Operations | Promise<Operations>,
  options: { close?: (ops: Operations) => void | Promise<void>; root?: string; seenAs?: string } = {},
): Promise<OpsWorld> {
  const root = options.root ?? makeWorldRoot();
  const ops = await create(join(root, "ws"));
  return {
    ops,
    root: options.seenAs ?? root,
    files: filesUnder(root),
    processesWith: async (name, value) => processesWithEnv(name, value),
    startSwapper: (path, target) => startFolderSwapper(join(root, path), join(root, target)),
    async dispose() {
      await options.close?.(ops);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
