/**
 * The operations conformance suite on the container backend, against a real Podman. Each case's world is a fresh
 * backend attached to one container this file starts (a container per case would add its start to each of some forty
 * cases): the container bind-mounts the folder the worlds are made in at /worlds, so each world's workspace is mounted,
 * under another name than on this machine, and attaching finds it; closing a world stops the processes its backend
 * started and leaves the container. Starting and removing a container of one's own is what the other tests here cover.
 * A death by signal reaches the backend as the status a POSIX sh `wait` gives, 128+n, so those cases are skipped.
 */
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { runOpsConformance, thisMachineWorld } from "@keel/testing/ops-conformance";
import { afterAll, describe, it } from "vitest";
import { startPodman, type Podman } from "../../../test/support/podman.ts";
import type { ContainerOps } from "../src/container-ops.ts";
import { openContainerOps } from "./fixture.ts";

const CONTAINER = "keel-conformance";
/** Where the container mounts the worlds' folder: not at its own path, so every path is mapped between the names. */
const SEEN_AS = "/worlds";
let shared: Promise<{ podman: Podman; parent: string }> | undefined;

/** The Podman and the container every world attaches to, started by the first case. */
function container() {
  shared ??= (async () => {
    const podman = await startPodman();
    const parent = realpathSync(mkdtempSync(join(tmpdir(), "keel-container-conformance-")));
    podman.cli([
      "run",
      "-d",
      "--name",
      CONTAINER,
      "--network",
      "none",
      "-v",
      `${parent}:${SEEN_AS}`,
      podman.image,
      "/bin/sh",
      "-c",
      "trap 'exit 0' TERM; while sleep 1000 & wait $!; do :; done",
    ]);
    return { podman, parent };
  })();
  return shared;
}

afterAll(async () => {
  if (!shared) return;
  const { podman, parent } = await shared;
  await podman.stop();
  rmSync(parent, { recursive: true, force: true });
});

runOpsConformance(
  {
    name: "container",
    lacks: { signals: "the run script learns the command's end from sh's wait, which says 128+n for signal n" },
    async setup() {
      const { podman, parent } = await container();
      const root = realpathSync(mkdtempSync(join(parent, "world-")));
      mkdirSync(join(root, "ws"));
      mkdirSync(join(root, "outside"));
      return thisMachineWorld((cwd) => openContainerOps(podman, cwd, { container: CONTAINER }), {
        root,
        seenAs: join(SEEN_AS, basename(root)),
        close: (ops) => (ops as ContainerOps).close(),
      });
    },
  },
  { describe, it },
);
