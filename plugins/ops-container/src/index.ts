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
    const opened = new Set<ContainerOps>();
    api.onDispose(async () => {
      const closing = [...opened].map((ops) => ops.close());
      const failed = (await Promise.allSettled(closing)).filter((r) => r.status === "rejected");
      for (const r of failed) api.log.warn(`Could not remove a container keel started: ${String(r.reason)}`);
    });
    api.registerOps({
      name: "container",
      description: "A container (Docker or Podman), the workspace bind-mounted",
      async create({ cwd, resume }) {
        const ops = await (await import("./create.ts")).createContainerOps(api, cwd, resume);
        opened.add(ops);
        return ops;
      },
    });
  },
});
