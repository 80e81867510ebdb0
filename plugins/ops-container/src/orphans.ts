/**
 * Containers a keel created and could not remove, because it was killed before it could: each carries the
 * label `OWNER_LABEL` = `<host>:<pid>`, and the next keel on the same host removes those whose process is gone.
 * A reused pid only delays that; a container of a live keel is never touched.
 */
import { hostname } from "node:os";
import type Docker from "dockerode";

export const OWNER_LABEL = "dev.keel.owner";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes this host's keel containers whose keel has exited; errors are left for the next start. */
export async function removeOrphans(docker: Docker): Promise<void> {
  let listed: Docker.ContainerInfo[];
  try {
    listed = await docker.listContainers({ all: true, filters: { label: [OWNER_LABEL] } });
  } catch {
    return;
  }
  const host = `${hostname()}:`;
  const orphans = listed.filter((info) => {
    const owner = info.Labels[OWNER_LABEL] ?? "";
    const pid = owner.slice(host.length);
    return owner.startsWith(host) && /^\d+$/.test(pid) && !alive(Number(pid));
  });
  await Promise.all(
    orphans.map((info) =>
      docker
        .getContainer(info.Id)
        .remove({ force: true, v: true })
        .catch(() => {}),
    ),
  );
}
