/**
 * ops-ssh: the `ssh` operations backend. Tools work on a remote host over SSH: files over SFTP, commands over
 * exec channels, confined to a remote root (`"ops": "ssh"` and the `"ops-ssh"` section: host, port, user,
 * identityFile, knownHostsFile, root; `Host` entries of ~/.ssh/config fill in the rest). ssh2 loads only when
 * the backend is chosen.
 */
import { definePlugin } from "@keel/extensions-api";
import { SshSettingsSchema } from "./settings.ts";
import type { SshOps } from "./ssh-ops.ts";

export default definePlugin({
  settings: SshSettingsSchema,
  activate(api) {
    const created = new Set<SshOps>();
    // Commands still running on the remote host, and what they left, go with the session.
    api.onDispose(() => Promise.all([...created].map((ops) => ops.close())).then(() => {}));
    api.registerOps({
      name: "ssh",
      description: "A remote host over SSH, confined to a remote folder",
      async create({ resume }) {
        const ops = await (await import("./create.ts")).createSshOps(api.settings, resume);
        created.add(ops);
        return ops;
      },
    });
  },
});
