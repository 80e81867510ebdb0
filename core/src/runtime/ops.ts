/**
 * Choosing the operations backend: the one the `ops` setting names, else the first installed.
 */
import type { Operations } from "@keel/extensions-api";
import type { Contributions } from "../host/registries.js";
import type { PluginHost } from "../host/plugin-host.js";

export async function createOps(
  wanted: string | undefined,
  cwd: string,
  host: PluginHost,
  contributions: Contributions,
  replaces?: string,
): Promise<Operations> {
  await host.activateFor("ops", wanted ?? "*");
  const entry = wanted ? contributions.ops.get(wanted) : contributions.ops.list()[0];
  if (!entry) {
    const installed = contributions.ops.list().map((e) => e.name);
    throw new Error(
      wanted
        ? `The operations backend "${wanted}" (setting "ops") is not ` +
            `installed${installed.length ? `; installed: ${installed.join(", ")}` : ""}.`
        : "No operations backend is installed, so tools cannot touch files or run commands. Install " +
            "one (e.g. @keel/plugin-ops-local).",
    );
  }
  return entry.item.create(replaces === undefined ? { cwd } : { cwd, replaces });
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
