/**
 * ops-container: the `container` operations backend. Commands run in a container the Docker Engine API starts
 * (Docker, or Podman's compatible service) from an image, or in a running one it attaches to; the workspace is
 * bind-mounted, and file tools work on it through the confined local backend. Picked by `"ops": "container"`;
 * settings in the `"ops-container"` section, the project's devcontainer.json filling in what they leave unset
 * once the folder is trusted. What it created is removed when the session ends.
 */
import { definePlugin } from "@keel/extensions-api";
import type { ContainerOps } from "./container-ops.ts";
import { ContainerSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: ContainerSettingsSchema,
  activate(api) {
    // Every backend made or being made (undefined: it failed, and its tool results said why; nothing to close).
    // One still starting its container when the session ends stops (an image pull is dropped) or is closed once
    // it is up, so its container does not outlive keel.
    const made: Promise<ContainerOps | undefined>[] = [];
    const ending = new AbortController();
    api.onDispose(async () => {
      ending.abort();
      const closing = await Promise.allSettled(made.map(async (making) => (await making)?.close()));
      for (const result of closing)
        if (result.status === "rejected")
          api.log.warn(`Could not remove a container keel started: ${String(result.reason)}`);
    });
    api.registerOps({
      name: "container",
      description: "A container (Docker or Podman), the workspace bind-mounted",
      create({ cwd, resume }) {
        const making = import("./create.ts").then((module) =>
          module.createContainerOps(api, cwd, resume, ending.signal),
        );
        made.push(making.catch(() => undefined));
        return making;
      },
    });
  },
});
