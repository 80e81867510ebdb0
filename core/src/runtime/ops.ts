/**
 * Choosing the operations backend: the one the `ops` setting names, else the first installed.
 */
import type { Operations } from "@keel/extensions-api";
import type { Contributions } from "../host/contributions.js";
import type { PluginHost } from "../host/plugin-host.js";

export async function createOps(wanted: string | undefined, cwd: string, host: PluginHost, contributions: Contributions): Promise<Operations> {
  await host.activateFor(wanted ? `onOps:${wanted}` : "onOps:*");
  const entry = wanted ? contributions.ops.get(wanted) : contributions.ops.list()[0];
  if (!entry) {
    const installed = contributions.ops.list().map((e) => e.name);
    throw new Error(
      wanted
        ? `The operations backend "${wanted}" (setting "ops") is not installed${installed.length ? `; installed: ${installed.join(", ")}` : ""}.`
        : "No operations backend is installed, so tools cannot touch files or run commands. Install one (e.g. @keel/plugin-ops-local).",
    );
  }
  return entry.item.create({ cwd });
}
