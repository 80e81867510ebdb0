/**
 * The backends every file-tool test runs against, unchanged: the local machine on a real temp folder (with
 * ripgrep, and with ripgrep switched off so the fallback walker is tested on a real disk too) and the
 * in-memory backend. Tests seed files through `ops`, so they never know which backend they run on.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Operations, ToolContext } from "@keel/extensions-api";
import { createLocalOps } from "../../ops-local/src/local-ops.ts";
import { createMemoryOps } from "../../ops-memory/src/memory-ops.ts";
import { createFileTools } from "../src/tools.ts";
import { tempFolder, toolContext } from "../../../test/support/workspace.ts";

export type FileTools = ReturnType<typeof createFileTools>;

export interface Env {
  ops: Operations;
  /** Creates files (path → text or bytes) the quickest way the backend allows; setup, not the thing tested. */
  seed(files: Record<string, string | Uint8Array>): Promise<void>;
  tools: FileTools;
  ctx: ToolContext;
  cleanup(): void;
}

export interface Backend {
  name: string;
  setup(): Env;
}

function local(ripgrep: boolean): Env {
  const folder = tempFolder("keel-tools-fs-");
  const ops = createLocalOps({ cwd: folder.path });
  // Plain writes: the backend's atomic writes fsync each file, which makes seeding a thousand files slow.
  const seedFiles = async (files: Record<string, string | Uint8Array>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(folder.path, path)), { recursive: true });
      writeFileSync(join(folder.path, path), content);
    }
  };
  return { ops, seed: seedFiles, tools: createFileTools({ ripgrep }), ctx: toolContext(ops), cleanup: folder.remove };
}

const memory: Backend = {
  name: "memory",
  setup() {
    const ops = createMemoryOps("/workspace");
    return {
      ops,
      seed: (files) => seed(ops, files),
      tools: createFileTools({ ripgrep: true }),
      ctx: toolContext(ops),
      cleanup() {},
    };
  },
};

/** For tools that only read and write files. */
export const backends: Backend[] = [{ name: "local disk", setup: () => local(true) }, memory];

/** For find and grep, which also have a ripgrep route on the local disk. */
export const searchBackends: Backend[] = [
  { name: "local disk, ripgrep", setup: () => local(true) },
  { name: "local disk, fallback walker", setup: () => local(false) },
  memory,
];

/** Creates `files` (path → text or bytes) through the backend's own writes. */
export async function seed(ops: Operations, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) await ops.writeFile(path, content);
}

export async function readText(ops: Operations, path: string): Promise<string> {
  return new TextDecoder().decode(await ops.readFile(path));
}
