/**
 * The `ops-container` section of settings.json: which container (an image to start, or one to attach to), how
 * to reach the engine, where the workspace appears inside, and what the container may use. Keys left unset
 * take the project's devcontainer.json (once the folder is trusted), then the defaults.
 */
import { z } from "@keel/extensions-api";

const absolute = z.string().regex(/^\//, "an absolute path inside the container");

export const ContainerSettingsSchema = z
  .object({
    image: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The image to start a container from (pulled when missing); the container is removed when keel exits. " +
          "Unset: the devcontainer.json's `image`.",
      ),
    container: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A running container to attach to instead, by name or id; it must bind-mount the workspace, and keel " +
          "leaves it running (it stops only the processes it started).",
      ),
    socket: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The Docker Engine API socket (Docker's, or Podman's `podman system service`), a path or `unix://` " +
          "URL. Unset: `DOCKER_HOST`, then /var/run/docker.sock, /run/podman/podman.sock and " +
          "$XDG_RUNTIME_DIR/podman/podman.sock, the first that exists.",
      ),
    workspaceMount: absolute
      .optional()
      .describe(
        "Where the workspace is bind-mounted in the container, which is also where commands start. Unset: " +
          "the devcontainer.json's `workspaceFolder` (or `/workspaces/<folder name>` when it has one), else the " +
          "workspace's own path, so paths read the same inside and out.",
      ),
    network: z
      .string()
      .min(1)
      .default("none")
      .describe("The container's network: `none` (no network, only loopback), `bridge`, `host` or a network's name."),
    user: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The user (`name`, `uid` or `uid:gid`) the container and its commands run as. Unset: the " +
          "devcontainer.json's `remoteUser`, else the image's.",
      ),
    env: z
      .record(z.string(), z.string())
      .default({})
      .describe("Environment variables of the container, over the devcontainer.json's `containerEnv`."),
    memory: z.number().int().positive().optional().describe("Memory limit of the container in bytes (unset: none)."),
    cpus: z.number().positive().optional().describe("How many CPUs the container may use, e.g. 1.5 (unset: all)."),
    pids: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("The most processes the container may run at once (unset: the engine's default)."),
    devcontainer: z
      .boolean()
      .default(true)
      .describe(
        "Read the project's `.devcontainer/devcontainer.json` (or `.devcontainer.json`) for what these keys " +
          "leave unset, once the folder is trusted.",
      ),
  })
  .prefault({});

export type ContainerSettings = z.output<typeof ContainerSettingsSchema>;
