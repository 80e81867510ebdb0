/**
 * The backend built as its plugin builds it, without the host: a plan, the engine at the test's Podman, the
 * container, and the local backend serving the mounted workspace. For tests of the operations themselves.
 */
import { createLocalOps } from "../../ops-local/src/local-ops.ts";
import { ContainerSession } from "../src/container.ts";
import { ContainerOps } from "../src/container-ops.ts";
import { connectEngine } from "../src/engine.ts";
import { planContainer } from "../src/plan.ts";
import { ContainerSettingsSchema } from "../src/settings.ts";
import { WorkspaceMap } from "../src/workspace-map.ts";
import type { Podman } from "../../../test/support/podman.ts";

export async function openContainerOps(
  podman: Podman,
  workspace: string,
  settings: Record<string, unknown> = {},
): Promise<ContainerOps> {
  const parsed = ContainerSettingsSchema.parse({ image: podman.image, socket: podman.socket, ...settings });
  const plan = planContainer(parsed, workspace, undefined);
  const session = await ContainerSession.open(await connectEngine(podman.socket), plan, () => {});
  return new ContainerOps(
    session,
    createLocalOps({ cwd: workspace, longLivedShell: false }),
    new WorkspaceMap(workspace, session.mount),
  );
}
