/**
 * Helpers for process tests: liveness read from /proc (zombies count as gone: this container's init does not
 * reap orphans), and output collectors that resolve on what was printed rather than on elapsed time.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext, ToolResult } from "@keel/extensions-api";
import { createLocalOps } from "../../plugins/ops-local/src/local-ops.ts";

export { isAlive, processesWithEnv } from "@keel/testing/ops-conformance";

/** Live processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && fields[0] !== "X" && Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** Collects output chunks and lets a test wait until some text has appeared. */
export function outputCollector() {
  const chunks: Buffer[] = [];
  let text = "";
  const waiters: { needle: string; resolve: () => void }[] = [];
  return {
    onData(chunk: Uint8Array) {
      chunks.push(Buffer.from(chunk));
      text += Buffer.from(chunk).toString("utf8");
      for (const w of waiters.splice(0)) {
        if (text.includes(w.needle)) w.resolve();
        else waiters.push(w);
      }
    },
    text: () => text,
    bytes: () => Buffer.concat(chunks),
    /** Resolves once the output contains `needle`. */
    waitFor(needle: string): Promise<void> {
      if (text.includes(needle)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ needle, resolve }));
    },
  };
}

/** Pids printed by a command as `pid=<n>` lines. */
export function printedPids(text: string): number[] {
  return [...text.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
}

/**
 * A temp workspace and data folder, and a factory of real tool contexts over the local backend (starting
 * commands through its long-lived shell unless `longLivedShell: false`; `ops.close()` ends that shell).
 */
export function localWorkspace(options: { longLivedShell?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), "keel-bash-"));
  const cwd = join(root, "workspace");
  const dataDir = join(root, "data");
  mkdirSync(cwd, { recursive: true });
  const ops = createLocalOps({ cwd, longLivedShell: options.longLivedShell });
  let calls = 0;
  return {
    root,
    cwd: ops.cwd,
    dataDir,
    ops,
    /** A context for one call; `updates` records progress and `abort` aborts the call. */
    context() {
      const controller = new AbortController();
      const updates: ToolResult[] = [];
      const ctx: ToolContext = {
        signal: controller.signal,
        toolCallId: `call_${++calls}`,
        cwd: ops.cwd,
        ops,
        dataDir,
        update: (p) => updates.push(p),
      };
      return { ctx, updates, abort: () => controller.abort() };
    },
  };
}

/** The text of a tool result. */
export function textOf(result: ToolResult): string {
  return typeof result.content === "string"
    ? result.content
    : result.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
