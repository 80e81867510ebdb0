/**
 * ops-local: the `local` operations backend. Tools reach the real machine through it, confined to the
 * workspace plus the allowed roots configured in settings (`"ops-local": { "allowedRoots": [...] }`).
 */
import { definePlugin } from "@keel/extensions-api";
import { createLocalOps, type LocalOps } from "./local-ops.ts";
import { LocalOpsSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: LocalOpsSettingsSchema,
  activate(api) {
    const created = new Set<LocalOps>();
    // The long-lived shells go with the session; each also ends by itself when keel's end of its pipe closes.
    api.onDispose(() => {
      for (const ops of created) ops.close();
    });
    api.registerOps({
      name: "local",
      description: "This machine, confined to the workspace and the allowed roots",
      create({ cwd }) {
        const { allowedRoots, longLivedShell } = api.settings;
        const ops = createLocalOps({
          cwd,
          allowedRoots,
          longLivedShell,
          onShellGivenUp: (why) =>
            api.log.warn(
              `The long-lived shell is off for this session: ${why}. Commands are started from keel instead ` +
                `(slower as keel's memory grows); "ops-local.longLivedShell": false skips trying.`,
            ),
        });
        created.add(ops);
        for (const missing of ops.missingRoots) {
          api.log.warn(
            `The allowed root ${missing} does not exist, so it was left out; fix ` +
              `"ops-local.allowedRoots" in settings.json.`,
          );
        }
        return ops;
      },
    });
  },
});
