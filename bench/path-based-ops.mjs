// The local backend's file access as it was before it worked through checked descriptors, kept here only as
// the reference the race-safe access is measured against (tools-fs.bench.mjs): every call resolves its path
// and then uses that path, which a folder swapped for a symlink in between leads outside. Same resolver,
// same read (its descriptor check is unchanged), same process start; only how the path is used differs.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { dirname } from "node:path";

/** @param {{ isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }} entry */
function kindOf(entry) {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  return entry.isFile() ? "file" : "other";
}

/**
 * An `Operations` over `ops` (a LocalOps) with list, stat, writeFile and spawn's folder done by path.
 * @param {import("../plugins/ops-local/src/local-ops.ts").LocalOps} ops
 * @param {typeof import("../plugins/ops-local/src/spawn.ts").spawnProcess} spawnProcess
 * @returns {import("@keel/extensions-api").Operations}
 */
export function pathBasedOps(ops, spawnProcess) {
  const { confinement } = ops;
  return {
    cwd: ops.cwd,
    local: true,
    resolve: (path, access) => ops.resolve(path, access),
    readFile: (path) => ops.readFile(path),
    async writeFile(path, data) {
      // What write-file-atomic did: a temp file beside the target, written, flushed and renamed, all by path.
      const real = confinement.resolve(path, "write");
      await fs.mkdir(dirname(real), { recursive: true });
      const temp = `${real}.${randomBytes(5).toString("hex")}`;
      const handle = await fs.open(temp, "wx");
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, real);
    },
    async stat(path) {
      const entry = confinement.resolve(path, "read", "entry");
      try {
        const info = await fs.lstat(entry);
        return { kind: kindOf(info), size: info.size, mtimeMs: info.mtimeMs };
      } catch {
        return undefined;
      }
    },
    async list(path) {
      const entries = await fs.readdir(confinement.resolve(path, "read"), { withFileTypes: true });
      return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    },
    mkdir: (path) => ops.mkdir(path),
    remove: (path) => ops.remove(path),
    spawn: (command, options = {}) =>
      spawnProcess(command, {
        cwd: confinement.resolve(options.cwd ?? ".", "read"),
        env: stringEnv(process.env),
        ...pick(options),
      }),
  };
}

/** @param {NodeJS.ProcessEnv} env */
function stringEnv(env) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** @param {import("@keel/extensions-api").SpawnOptions} options */
function pick(options) {
  return { signal: options.signal, onData: options.onData, stdin: options.stdin, keepStdinOpen: options.keepStdinOpen };
}
