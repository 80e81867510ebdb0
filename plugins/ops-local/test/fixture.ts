/**
 * A workspace with a world around it, for confinement tests: `ws/` is the workspace, `outside/` holds a
 * secret, `ro/` and `rw/` are allowed roots (read-only and read-write), and `ws/` holds symlinks of every
 * kind that lead out, plus some that stay in.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalOps, type LocalOps } from "../src/local-ops.ts";
import { tempFolder } from "../../../test/support/workspace.ts";

export const SECRET = "outside secret\n";

export interface World {
  root: string;
  ws: string;
  outside: string;
  ops: LocalOps;
  remove(): void;
}

export function makeWorld(): World {
  const folder = tempFolder("keel-confine-");
  const root = folder.path;
  const at = (...parts: string[]) => join(root, ...parts);
  for (const dir of ["ws/sub/deeper", "outside/dir", "ro", "rw", "ws2"]) mkdirSync(at(dir), { recursive: true });
  writeFileSync(at("outside/secret.txt"), SECRET);
  writeFileSync(at("ro/ref.txt"), "reference\n");
  writeFileSync(at("ws2/sibling.txt"), "sibling\n");
  writeFileSync(at("ws/real.txt"), "inside\n");
  writeFileSync(at("ws/sub/inner.txt"), "inner\n");
  const links: [string, string][] = [
    ["ws/link-out-file", "../outside/secret.txt"],
    ["ws/link-out-dir", "../outside"],
    ["ws/link-abs-file", at("outside/secret.txt")],
    ["ws/link-etc", "/etc/passwd"],
    ["ws/link-root", "/"],
    ["ws/dangling-out", "../outside/new.txt"],
    ["ws/dangling-out-dir", "../outside/newdir"],
    ["ws/chain1", "chain2"],
    ["ws/chain2", "chain3"],
    ["ws/chain3", "../outside/secret.txt"],
    ["ws/dangle-chain", "dangling-out"],
    ["ws/loop1", "loop2"],
    ["ws/loop2", "loop1"],
    ["ws/sub/link-up", "../../outside"],
    ["ws/link-parent", ".."],
    ["ws/link-to-ro", "../ro"],
    ["ws/inside-link", "real.txt"],
    ["ws/inside-dir-link", "sub"],
    ["ws/inside-dangling", "sub/not-yet.txt"],
  ];
  for (const [path, target] of links) symlinkSync(target, at(path));
  const ops = createLocalOps({
    cwd: at("ws"),
    allowedRoots: [
      { path: at("ro"), access: "read" },
      { path: "../rw", access: "read-write" },
    ],
  });
  return { root, ws: at("ws"), outside: at("outside"), ops, remove: folder.remove };
}
