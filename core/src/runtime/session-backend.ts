/**
 * The session's operations backend: the one `useOps` chose, else the one the managed layer names, else the one
 * a given flag picks, else the backend a resumed session recorded (ops-record.ts), else the `ops` setting, else
 * the first installed. It is created once, on first need.
 */
import type { FlagSpec, Operations } from "@keel/extensions-api";
import type { EventBus } from "@keel/kernel";
import type { Contributions } from "../host/registries.js";
import type { PluginHost } from "../host/plugin-host.js";
import { recordedOps, recordOps } from "./ops-record.js";
import type { PluginEntries } from "../host/plugin-entries.js";

/**
 * `explicit`: the backend the managed layer names (nothing below undoes it), else the one a given boolean flag
 * picks (`FlagSpec.ops`, e.g. `--sandbox`); `setting`: the `ops` setting, which a resumed session's record of
 * its backend overrides.
 */
function wantedOps(
  setting: string | undefined,
  managed: boolean,
  flags: readonly FlagSpec[],
  given: Record<string, unknown>,
): { explicit?: string; setting?: string } {
  if (managed) return { explicit: setting };
  return { explicit: flags.find((flag) => flag.ops !== undefined && given[flag.name] === true)?.ops, setting };
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
 * Creates the session's backend. A choice made for this run (`explicit`: the managed setting, a mode's
 * `useOps`, a flag such as `--sandbox`) wins; else a resumed session's recorded backend, given back what it
 * recorded; else the `ops` setting.
 */
async function createSessionOps(
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

/** What the backend is chosen from, read when it is created. */
export interface BackendChoice {
  cwd: string;
  host: PluginHost;
  contributions: Contributions;
  /** The `ops` setting in effect, and whether the managed layer set it. */
  setting(): string | undefined;
  managed(): boolean;
  /** The flags given (`runtime.flags`). */
  given: Record<string, unknown>;
  /** The session's entries, where the backend is recorded (`SessionMoves.entries`). */
  entries: PluginEntries;
}

/**
 * The session's backend, created once on first need: `prepare()` starts it (tools await that), `current` hands
 * it to tools synchronously, or throws why there is none.
 */
export class SessionBackend {
  private ops: Operations | undefined;
  private error: string | undefined;
  private ready: Promise<void> | undefined;
  /** What `useOps` chose, over the flag and the setting. */
  private chosen: string | undefined;

  constructor(private readonly choice: BackendChoice) {}

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

  /** `Runtime.useOps`: names the backend before it starts, unless the managed settings fix it. */
  use(name: string): void {
    if (this.started)
      throw new Error(`the operations backend has started already; useOps("${name}") must come before the first run`);
    if (this.choice.managed())
      throw new Error(`the managed settings fix the operations backend ("${this.choice.setting()}")`);
    this.chosen = name;
  }

  /**
   * Starts the backend once the model begins a tool call during the run `run` makes, so it never delays the
   * request and an answer of text alone never loads it (a `-p` question saves ~5 ms); the call's arguments
   * stream meanwhile, and tools wait for it.
   */
  async startOnToolCall<T>(bus: EventBus, run: () => Promise<T>): Promise<T> {
    let off: (() => void) | undefined;
    if (!this.started) {
      off = bus.on("message_update", ({ delta }) => {
        if (delta.type !== "toolcall_start") return;
        off?.();
        void this.prepare();
      });
    }
    try {
      return await run();
    } finally {
      off?.();
    }
  }

  private create(): Promise<Operations> {
    const { cwd, host, contributions, entries } = this.choice;
    const flags = contributions.flags.list().map((e) => e.item);
    const { explicit, setting } = wantedOps(this.choice.setting(), this.choice.managed(), flags, this.choice.given);
    const choice =
      this.chosen === undefined ? { explicit, setting } : { explicit: this.chosen, replaces: explicit ?? setting };
    return createSessionOps(choice, entries, cwd, host, contributions);
  }
}
