/**
 * An attacker racing the file tools and the conformance suite's race cases: another process that swaps a folder
 * of the workspace for a symlink to a folder outside it and back, nonstop, pausing a fraction of a millisecond in
 * each state. The real folder keeps its inode the whole time; it is parked beside the symlink while the symlink
 * stands in its place. In the moment between the two renames the path is missing, and a tool may create a folder
 * there (a write makes its parent folders): the swapper moves such a folder aside as `<path>.made-<n>`, keeping
 * what was written into it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Shared by the attacker and `stop`: puts the real folder back at `path`, moving anything else aside. */
const RESTORE = `
  const fs = require("node:fs");
  const [path, target] = process.argv.slice(1);
  const parked = path + ".parked", link = path + ".link";
  const realIno = fs.lstatSync(fs.existsSync(parked) ? parked : path).ino;
  let made = 0;
  const step = (fn) => { try { fn(); } catch {} };
  const info = (p) => { try { return fs.lstatSync(p); } catch { return undefined; } };
  const clearPath = () => {
    const at = info(path);
    if (!at || at.ino === realIno) return;
    if (at.isSymbolicLink()) step(() => fs.unlinkSync(path));
    else step(() => fs.renameSync(path, path + ".made-" + process.pid + "-" + made++));
  };
  const restore = () => {
    if (info(parked)?.ino === realIno) { clearPath(); step(() => fs.renameSync(parked, path)); }
    step(() => fs.unlinkSync(link));
  };`;

const ATTACK = `${RESTORE}
  process.stdout.write("ready\\n");
  // A short pause in each state keeps it from taking a whole core from the tests running beside it.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    restore();
    Atomics.wait(pause, 0, 0, 0.2);
    step(() => fs.symlinkSync(target, link));
    step(() => fs.renameSync(path, parked));
    clearPath();
    step(() => fs.renameSync(link, path));
    Atomics.wait(pause, 0, 0, 0.2);
  }`;

export interface FolderSwapper {
  /** Stops the attacker and puts the real folder back in its place. Safe to call twice. */
  stop(): Promise<void>;
  /** The folders a tool created at the path while it was missing, moved aside. */
  madeFolders(): string[];
}

/** Starts swapping the folder `path` for a symlink to `target`; resolves once the attacker runs. */
export async function startFolderSwapper(path: string, target: string): Promise<FolderSwapper> {
  const child: ChildProcess = spawn(process.execPath, ["-e", ATTACK, path, target], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve) => child.stdout!.once("data", resolve));
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        child.kill("SIGKILL");
        await exited;
        const restorer = spawn(process.execPath, ["-e", `${RESTORE}\nrestore();`, path, target], { stdio: "inherit" });
        await new Promise((resolve) => restorer.once("exit", resolve));
      })();
      return stopped;
    },
    madeFolders() {
      const prefix = `${basename(path)}.made-`;
      return readdirSync(dirname(path))
        .filter((name) => name.startsWith(prefix))
        .map((name) => join(dirname(path), name));
    },
  };
}
