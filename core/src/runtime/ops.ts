/**
 * Choosing the operations backend: the one the `ops` setting names, else the first installed; and what the
 * session records of it, so a resumed session goes back to the same backend and place (a remote host's root).
 */
import type { Operations } from "@keel/extensions-api";
import type { Contributions } from "../host/contributions.js";
import type { PluginHost } from "../host/plugin-host.js";
import type { PluginEntries } from "./plugin-entries.js";

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

/**
 * Creates the session's backend. A choice made for this run (`explicit`: the managed setting, a mode's
 * `useOps`, a flag such as `--sandbox`) wins; else a resumed session's recorded backend, given back what it
 * recorded; else the `ops` setting. Returns the backend and the name it was registered under.
 */
export async function createSessionOps(
  choice: { explicit?: string; setting?: string; replaces?: string },
  entries: PluginEntries,
  cwd: string,
  host: PluginHost,
  contributions: Contributions,
): Promise<Operations> {
  const recorded = choice.explicit === undefined ? recordedOps(entries) : undefined;
  const wanted = choice.explicit ?? recorded?.backend ?? choice.setting;
  const fromRecord = recorded !== undefined && recorded.backend === wanted;
  const at = recorded?.where ? `, at ${recorded.where}` : "";
  const source = fromRecord ? `which this session worked on${at}; start a new session to use another` : 'setting "ops"';
  const resume = fromRecord ? recorded.resume : undefined;
  const { ops, name } = await createNamedOps(wanted, cwd, host, contributions, source, choice.replaces, resume);
  recordOps(entries, name, ops);
  return ops;
}

async function createNamedOps(
  wanted: string | undefined,
  cwd: string,
  host: PluginHost,
  contributions: Contributions,
  /** Why this backend is wanted, for the error when it is not installed. */
  source: string,
  replaces?: string,
  resume?: unknown,
): Promise<{ ops: Operations; name: string }> {
  await host.activateFor("ops", wanted ?? "*");
  const entry = wanted ? contributions.ops.get(wanted) : contributions.ops.list()[0];
  if (!entry) {
    const installed = contributions.ops.list().map((e) => e.name);
    throw new Error(
      wanted
        ? `The operations backend "${wanted}" (${source}) is not ` +
            `installed${installed.length ? `; installed: ${installed.join(", ")}` : ""}.`
        : "No operations backend is installed, so tools cannot touch files or run commands. Install " +
            "one (e.g. @keel/plugin-ops-local).",
    );
  }
  const options: { cwd: string; replaces?: string; resume?: unknown } = { cwd };
  if (replaces !== undefined) options.replaces = replaces;
  if (resume !== undefined) options.resume = resume;
  return { ops: await entry.item.create(options), name: entry.name };
}

/**
 * The session's backend, created once on first need: `prepare()` starts it (tools await that), `current` hands
 * it to tools synchronously, or throws why there is none.
 */
export class BackendSlot {
  private ops: Operations | undefined;
  private error: string | undefined;
  private ready: Promise<void> | undefined;

  constructor(private readonly create: () => Promise<Operations>) {}

  get started(): boolean {
    return this.ready !== undefined;
  }

  prepare(): Promise<void> {
    this.ready ??= this.create().then(
      (ops) => void (this.ops = ops),
      (error: Error) => void (this.error = error.message),
    );
    return this.ready;
  }

  get current(): Operations {
    if (this.ops) return this.ops;
    throw new Error(this.error ?? "No operations backend is ready.");
  }
}
