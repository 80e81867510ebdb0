/**
 * Building the sandbox backend for a session: the wrapped `local` backend, the mount layout from the settings,
 * and one probe run so a sandbox that cannot start says why before any command. Imported only when the
 * `sandbox` backend is chosen.
 */
import type { Operations, PluginAPI } from "@keel/extensions-api";
import { z } from "@keel/extensions-api";
import { planLayout, type AllowedRoot } from "./layout.ts";
import { SandboxOps } from "./sandbox-ops.ts";
import type { SandboxSettings } from "./settings.ts";

/** ops-local's roots as its section holds them; ops-local validates the section and reports its problems. */
const RootsSection = z.object({
  allowedRoots: z.array(z.object({ path: z.string().min(1), access: z.enum(["read", "read-write"]).default("read") })),
});

function allowedRoots(api: PluginAPI<SandboxSettings>): AllowedRoot[] {
  const section = RootsSection.safeParse(api.allSettings["ops-local"]);
  return section.success ? section.data.allowedRoots : [];
}

/** The backend whose files the sandbox uses and whose `spawn` it wraps. */
const WRAPPED = "local";

export async function createSandbox(api: PluginAPI<SandboxSettings>, cwd: string): Promise<Operations> {
  const backend = await api.opsBackend(WRAPPED);
  if (!backend)
    throw new Error(
      `The sandbox backend (plugin sandbox-bwrap) wraps the "${WRAPPED}" backend, which is not ` +
        `installed; install @keel/plugin-ops-local.`,
    );
  const inner = await backend.create({ cwd });
  const { layout, skipped } = planLayout(inner.cwd, api.settings, allowedRoots(api));
  for (const why of skipped) api.log.warn(`${why}; fix it in settings.json.`);
  const ops = new SandboxOps({ inner, bwrap: api.settings.bwrap, layout });
  const refusal = await ops.probe();
  if (refusal) api.log.error(refusal);
  return ops;
}
