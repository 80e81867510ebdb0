/**
 * Building the sandbox backend for a session: the wrapped `local` backend, the mount layout from the settings,
 * and one probe run so a sandbox that cannot start says why before any command. Imported only when the
 * `sandbox` backend is chosen.
 */
import type { Operations, PluginAPI } from "@keel/extensions-api";
import { bwrapArgs } from "./bwrap-args.ts";
import { planLayout } from "./layout.ts";
import { SandboxOps } from "./sandbox-ops.ts";
import type { SandboxSettings } from "./settings.ts";

/** The backend whose files the sandbox uses and whose `spawn` it wraps. */
const WRAPPED = "local";

export async function createSandbox(api: PluginAPI<SandboxSettings>, cwd: string): Promise<Operations> {
  const backend = await api.opsBackend(WRAPPED);
  if (!backend)
    throw new Error(
      `The sandbox backend (plugin sandbox-bwrap) wraps the "${WRAPPED}" backend, which is not installed; install @keel/plugin-ops-local.`,
    );
  const inner = await backend.create({ cwd });
  const { layout, skipped } = planLayout(inner.cwd, api.settings);
  for (const why of skipped) api.log.warn(`${why}; fix it in settings.json.`);
  const ops = new SandboxOps({ inner, bwrap: api.settings.bwrap, args: bwrapArgs(layout) });
  const refusal = await ops.probe();
  if (refusal) api.log.error(refusal);
  return ops;
}
