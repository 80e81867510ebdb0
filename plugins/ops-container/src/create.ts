/**
 * Building the container backend for a session: the plan from the settings and the project's devcontainer.json
 * (only once the folder is trusted), the engine, the container, and the `local` backend whose confined file
 * operations serve the bind-mounted workspace. Imported only when the `container` backend is chosen, so a run
 * on another backend never loads the engine's client.
 */
import { realpathSync } from "node:fs";
import type { PluginAPI } from "@keel/extensions-api";
import { ContainerSession } from "./container.ts";
import { ContainerOps } from "./container-ops.ts";
import { readDevcontainer, type Devcontainer } from "./devcontainer.ts";
import { connectEngine, findSocket } from "./engine.ts";
import { planContainer } from "./plan.ts";
import type { ContainerSettings } from "./settings.ts";
import { WorkspaceMap } from "./workspace-map.ts";

/** The backend whose file operations serve the workspace on this machine's side of the mount. */
const FILES_FROM = "local";

function devcontainerOf(api: PluginAPI<ContainerSettings>, workspace: string): Devcontainer | undefined {
  if (!api.settings.devcontainer || !api.projectTrusted) return undefined;
  const found = readDevcontainer(workspace);
  for (const why of found?.ignored ?? []) api.log.warn(`${found!.file}: ${why}.`);
  return found;
}

/**
 * The session's data folder, shown read-only in the container at its own path: what tools keep there for the
 * model (a command's full output, when the bash tool cut it) is named by that path, and a command must be able
 * to read it, as on this machine. None before a session runs (a backend made without one).
 */
function sessionData(api: PluginAPI<ContainerSettings>): string[] {
  try {
    return [api.runtime.dataDir];
  } catch {
    return [];
  }
}

/**
 * `resume`: what the session being resumed recorded (`ContainerOps.resumeWith`), over the settings. `ending`:
 * the session ended while the container was being made (an image pull is dropped, nothing is left started).
 */
export async function createContainerOps(
  api: PluginAPI<ContainerSettings>,
  cwd: string,
  resume: unknown,
  ending: AbortSignal,
): Promise<ContainerOps> {
  const workspace = realpathSync.native(cwd);
  const planned = planContainer(api.settings, workspace, devcontainerOf(api, workspace), resume);
  const plan = { ...planned, readOnly: sessionData(api) };
  const files = await api.opsBackend(FILES_FROM);
  if (!files)
    throw new Error(
      `The container backend (plugin ops-container) serves files through the "${FILES_FROM}" backend, which ` +
        `is not installed; install @keel/plugin-ops-local.`,
    );
  const inner = await files.create({ cwd: workspace });
  const docker = await connectEngine(findSocket(api.settings.socket, process.env));
  // What it says (an image being pulled, which can take minutes) is shown, not only logged.
  const session = await ContainerSession.open(docker, plan, (text) => api.log.warn(text), ending);
  return new ContainerOps(session, inner, new WorkspaceMap(workspace, session.mount));
}
