/**
 * What container a session gets, from the settings over the project's devcontainer.json (read only once the
 * folder is trusted) over the defaults: one place decides, so the README's table and the behaviour agree.
 */
import type { Devcontainer } from "./devcontainer.ts";
import type { ContainerSettings } from "./settings.ts";

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

export function planContainer(
  settings: ContainerSettings,
  workspace: string,
  devcontainer: Devcontainer | undefined,
): ContainerPlan {
  const image = settings.image ?? devcontainer?.image;
  if (settings.container === undefined && image === undefined)
    throw new Error(
      'The container backend ("ops": "container") has no image to start: set "ops-container.image" in ' +
        'settings.json, or "ops-container.container" to attach to a running container' +
        (devcontainer
          ? `; the project's ${devcontainer.file} names no image (it may build one, which keel does not do).`
          : ", or give the project a devcontainer.json with an image."),
    );
  const user = settings.user ?? devcontainer?.remoteUser;
  const mount =
    settings.workspaceMount ?? devcontainer?.workspaceFolder ?? (settings.container ? undefined : workspace);
  return {
    ...(settings.container !== undefined ? { container: settings.container } : { image: image! }),
    workspace,
    ...(mount !== undefined && { mount }),
    env: { ...devcontainer?.containerEnv, ...settings.env },
    ...(user !== undefined && { user }),
    network: settings.network,
    ...(settings.memory !== undefined && { memory: settings.memory }),
    ...(settings.cpus !== undefined && { cpus: settings.cpus }),
    ...(settings.pids !== undefined && { pids: settings.pids }),
  };
}
