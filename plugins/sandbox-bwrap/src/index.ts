/**
 * sandbox-bwrap: the `sandbox` operations backend. Shell commands and background processes run inside
 * bubblewrap (host filesystem read-only, workspace and configured folders writable, private /tmp and home, no
 * network unless a setting opens it); file tools keep the confined `local` backend it wraps. Picked by
 * `--sandbox` or `"ops": "sandbox"`. Settings (`"sandbox-bwrap"` section): bwrap, network, gitReadOnly,
 * writable, dotfiles. Its flag makes it start with the host; the sandbox itself loads when it is chosen.
 */
import { definePlugin } from "@keel/extensions-api";
import { SandboxSettingsSchema } from "./settings.ts";

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
      create: async ({ cwd }) => (await import("./create.ts")).createSandbox(api, cwd),
    });
  },
});
