/**
 * What container a session gets, from the settings over the project's devcontainer.json (read only once the
 * folder is trusted) over the defaults: one place decides, so the README's table and the behaviour agree.
 */
import { z } from "@keel/extensions-api";
import type { Devcontainer } from "./devcontainer.ts";
import type { ContainerSettings } from "./settings.ts";

/**
 * What a session records of its container (`ContainerOps.resumeWith`): the image it started from, or the
 * container it attached to, and where the workspace was in it. A resumed session gets the same over the settings.
 */
export const RecordedContainer = z.union([
  z.object({ image: z.string().min(1), mount: z.string().startsWith("/") }),
  z.object({ container: z.string().min(1), mount: z.string().startsWith("/") }),
]);
export type RecordedContainer = z.output<typeof RecordedContainer>;

export interface ContainerPlan {
  /** Start a container from this image... */
  image?: string;
  /** ...or attach to this running one (it wins when both are set). */
  container?: string;
  /** The workspace on this machine (its real path). */
  workspace: string;
  /** Where the workspace is in the container; for an attached container, undefined means "find its mount". */
  mount?: string;
  /** Folders of this machine shown read-only in a started container, each at its own path. */
  readOnly?: string[];
  env: Record<string, string>;
  user?: string;
  network: string;
  memory?: number;
  cpus?: number;
  pids?: number;
}

type Place = { image: string; mount: string } | { container: string; mount?: string };

/** The image or container, and the mount, that the settings and the devcontainer.json name. */
function placeOf(settings: ContainerSettings, workspace: string, devcontainer: Devcontainer | undefined): Place {
  const mount = settings.workspaceMount ?? devcontainer?.workspaceFolder;
  if (settings.container !== undefined) return { container: settings.container, ...(mount !== undefined && { mount }) };
  const image = settings.image ?? devcontainer?.image;
  if (image === undefined)
    throw new Error(
      'The container backend ("ops": "container") has no image to start: set "ops-container.image" in ' +
        'settings.json, or "ops-container.container" to attach to a running container' +
        (devcontainer
          ? `; the project's ${devcontainer.file} names no image (it may build one, which keel does not do).`
          : ", or give the project a devcontainer.json with an image."),
    );
  return { image, mount: mount ?? workspace };
}

/**
 * `recorded`: what the session being resumed recorded, which names the image or container and the mount over
 * the settings; something unreadable there is ignored.
 */
export function planContainer(
  settings: ContainerSettings,
  workspace: string,
  devcontainer: Devcontainer | undefined,
  recorded?: unknown,
): ContainerPlan {
  const resumed = RecordedContainer.safeParse(recorded);
  const place = resumed.success ? resumed.data : placeOf(settings, workspace, devcontainer);
  const user = settings.user ?? devcontainer?.remoteUser;
  return {
    ...place,
    workspace,
    env: { ...devcontainer?.containerEnv, ...settings.env },
    ...(user !== undefined && { user }),
    network: settings.network,
    ...(settings.memory !== undefined && { memory: settings.memory }),
    ...(settings.cpus !== undefined && { cpus: settings.cpus }),
    ...(settings.pids !== undefined && { pids: settings.pids }),
  };
}
