/**
 * sandbox-bwrap: the `sandbox` operations backend. Shell commands and background processes run inside
 * bubblewrap (host filesystem read-only, workspace and configured folders writable, private /tmp and home, no
 * network unless a setting opens it); file tools keep the confined `local` backend it wraps. Picked by
 * `--sandbox` or `"ops": "sandbox"`. Settings (`"sandbox-bwrap"` section): bwrap, network, gitReadOnly,
 * writable, dotfiles.
 */
import { definePlugin } from "@keel/extensions-api";
import { bwrapArgs } from "./bwrap-args.ts";
import { planLayout } from "./layout.ts";
import { SandboxOps } from "./sandbox-ops.ts";
import { SandboxSettingsSchema } from "./settings.ts";

/** The backend whose files the sandbox uses and whose `spawn` it wraps. */
const WRAPPED = "local";

export default definePlugin({
  settings: SandboxSettingsSchema,
  activate(api) {
    api.registerFlag({
      name: "sandbox",
      description: "run shell commands inside bubblewrap (the sandbox backend)",
      type: "boolean",
      ops: "sandbox",
    });
    api.registerOps({
      name: "sandbox",
      description: "Shell commands inside bubblewrap; files through the confined local backend",
      async create({ cwd }) {
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
      },
    });
  },
});
