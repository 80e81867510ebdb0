/**
 * What a session records of its operations backend, so a resumed session goes back to the same backend and place
 * (a remote host's root): only a backend that says where it points (`Operations.where`) is recorded.
 */
import type { Operations } from "@keel/extensions-api";
import type { PluginEntries } from "../host/plugin-entries.js";

/** The session entry that records the backend: `keel`'s own, of kind `ops`. */
const RECORD = { plugin: "keel", kind: "ops" } as const;

/** What a session recorded of its backend. */
export interface RecordedOps {
  backend: string;
  where?: string;
  resume?: unknown;
}

/** The backend the active branch last recorded, if any. */
export function recordedOps(entries: PluginEntries): RecordedOps | undefined {
  const data = entries.of(RECORD.plugin, RECORD.kind).at(-1)?.data as Partial<RecordedOps> | undefined;
  return typeof data?.backend === "string" ? (data as RecordedOps) : undefined;
}

/**
 * Records the backend the session now uses when it points somewhere else than this machine's workspace (it says
 * `where`), unless the branch already recorded just that.
 */
export function recordOps(entries: PluginEntries, backend: string, ops: Operations): void {
  if (ops.where === undefined) return;
  const record: RecordedOps = { backend, where: ops.where, resume: ops.resumeWith };
  const last = recordedOps(entries);
  if (last && JSON.stringify(last) === JSON.stringify(JSON.parse(JSON.stringify(record)))) return;
  entries.append(RECORD.plugin, RECORD.kind, record);
}
