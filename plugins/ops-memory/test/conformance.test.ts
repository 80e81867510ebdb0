/**
 * The operations conformance suite on the in-memory backend. Its world's workspace is the backend's own map;
 * everything outside it is a plain map the backend cannot reach, which is the point the suite checks. It has
 * no processes and no symlinks, so those cases are skipped.
 */
import type { WorldFiles } from "@keel/testing/ops-conformance";
import { runOpsConformance } from "@keel/testing/ops-conformance";
import { describe, it } from "vitest";
import { createMemoryOps, type MemoryOps } from "../src/memory-ops.ts";

const ROOT = "/world";

/** `ws/...` through the backend; anything else in a map beside it. */
function memoryFiles(ops: MemoryOps): WorldFiles {
  const outside = new Map<string, Uint8Array>();
  const inWorkspace = (path: string) => path === "ws" || path.startsWith("ws/");
  const wsPath = (path: string) => (path === "ws" ? "." : path.slice(3));
  return {
    async write(path, data) {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      if (inWorkspace(path)) await ops.writeFile(wsPath(path), bytes);
      else outside.set(path, bytes);
    },
    async read(path) {
      if (!inWorkspace(path)) return outside.get(path);
      return ops.readFile(wsPath(path)).catch(() => undefined);
    },
    async list(path) {
      if (inWorkspace(path)) return (await ops.list(wsPath(path)).catch(() => [])).map((entry) => entry.name).sort();
      const prefix = `${path}/`;
      return [
        ...new Set(
          [...outside.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length).split("/")[0]!),
        ),
      ].sort();
    },
    async mkdir(path) {
      if (inWorkspace(path)) await ops.mkdir(wsPath(path));
    },
    async symlink() {
      throw new Error("the in-memory backend has no symlinks");
    },
    async exists(path) {
      return inWorkspace(path) ? (await ops.stat(wsPath(path))) !== undefined : outside.has(path);
    },
  };
}

runOpsConformance(
  {
    name: "memory",
    lacks: {
      processes: "the in-memory backend runs no commands",
      symlinks: "the in-memory backend holds files and folders only",
      race: "nothing else can change its files",
    },
    async setup() {
      const ops = createMemoryOps(`${ROOT}/ws`);
      return { ops, root: ROOT, files: memoryFiles(ops), async dispose() {} };
    },
  },
  { describe, it },
);
