/**
 * Reaching the container engine: the Docker Engine API on a Unix socket, which Docker serves and Podman serves
 * too (`podman system service`, or its systemd socket). Which socket: the setting, else `DOCKER_HOST`, else the
 * usual places of Docker's and Podman's (root, then the user's).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import Docker from "dockerode";
import { engineMessage } from "./exec.ts";

function socketPath(value: string, from: string): string {
  if (value.startsWith("unix://")) return value.slice("unix://".length);
  if (value.startsWith("/")) return value;
  throw new Error(
    `${from} is ${JSON.stringify(value)}; the container backend reaches the engine through a Unix socket: give ` +
      `its path (or unix:// URL).`,
  );
}

/** Where the engine's socket is; throws naming the places tried when none exists. */
export function findSocket(
  setting: string | undefined,
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean = existsSync,
): string {
  if (setting !== undefined) return socketPath(setting, '"ops-container.socket"');
  if (env.DOCKER_HOST) return socketPath(env.DOCKER_HOST, "DOCKER_HOST");
  const tried = ["/var/run/docker.sock", "/run/podman/podman.sock"];
  if (env.XDG_RUNTIME_DIR) tried.push(join(env.XDG_RUNTIME_DIR, "podman", "podman.sock"));
  const found = tried.find(exists);
  if (found) return found;
  throw new Error(
    `No container engine socket found (tried ${tried.join(", ")}). Start Docker, or Podman's API service ` +
      `(systemctl --user start podman.socket, or podman system service), or set "ops-container.socket".`,
  );
}

/** How long the engine may take to answer its first request before keel says it does not. */
const PING_TIMEOUT_MS = 15_000;

/** A client of the engine at `socket`, checked to answer. */
export async function connectEngine(socket: string): Promise<Docker> {
  const docker = new Docker({ socketPath: socket });
  let timer: NodeJS.Timeout | undefined;
  try {
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${PING_TIMEOUT_MS / 1000} s`)), PING_TIMEOUT_MS);
    });
    await Promise.race([docker.ping(), silent]);
  } catch (error) {
    throw new Error(
      `The container engine at ${socket} does not answer (${engineMessage(error)}). Is Docker or Podman's API ` +
        `service running there?`,
    );
  } finally {
    clearTimeout(timer);
  }
  return docker;
}
