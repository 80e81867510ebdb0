/**
 * The container of one session: started from an image (the workspace bind-mounted, no network unless asked,
 * labelled with keel's process so a later keel can remove it should this one die) or attached to a running
 * one that already mounts the workspace. `close` removes what it created, or in an attached container stops the
 * processes this session started, and leaves the rest.
 */
import { hostname } from "node:os";
import { basename, posix, relative } from "node:path";
import { randomHex } from "@keel/extensions-api/random-id";
import type Docker from "dockerode";
import { engineMessage, runScript, startExec, type Exec } from "./exec.ts";
import { ensureImage } from "./image.ts";
import type { ContainerPlan, RecordedContainer } from "./plan.ts";
import { removeOrphans, OWNER_LABEL } from "./orphans.ts";
import { commandLine, KILL_SCRIPT, RUN_SCRIPT, SHELL_SCRIPT, tagPattern } from "./scripts.ts";
import { SessionShell } from "./shell.ts";
import type { ContainerTarget, RunRequest } from "./target.ts";

/** The created container's main process: waits, reaping what it inherits, and leaves at TERM. */
const KEEP_ALIVE = "trap 'exit 0' TERM; while sleep 1000 & wait $!; do :; done";

export class ContainerSession implements ContainerTarget {
  private tags = 0;
  private closing: Promise<void> | undefined;
  /** Every tag this session gives starts so; the kill at close finds them all by it. */
  private readonly tagPrefix = `k${randomHex(8)}`;

  private readonly shell: SessionShell;
  private readonly container: Docker.Container;
  readonly name: string;
  /** Where the workspace is inside. */
  readonly mount: string;
  /** Whether keel created it (and so removes it). */
  readonly created: boolean;

  private constructor(
    private readonly docker: Docker,
    opened: Opened,
    private readonly user: string | undefined,
    /** What the session records, to come back to the same image or container and mount when resumed. */
    readonly recorded: RecordedContainer,
  ) {
    ({ container: this.container, name: this.name, mount: this.mount, created: this.created } = opened);
    const { container, mount } = opened;
    this.shell = new SessionShell((sink) =>
      startExec(docker, container, {
        cmd: ["/bin/sh", "-c", SHELL_SCRIPT, "keel", mount],
        workingDir: mount,
        stdin: true,
        ...(user && { user }),
        ...sink,
      }),
    );
    this.shell.refill();
  }

  /** Starts or attaches the container the plan names. `signal`: the session ended; nothing is left started. */
  static async open(
    docker: Docker,
    plan: ContainerPlan,
    log: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<ContainerSession> {
    const opened = plan.container !== undefined ? await attach(docker, plan) : await create(docker, plan, log, signal);
    const place = plan.container !== undefined ? { container: plan.container } : { image: plan.image! };
    return new ContainerSession(docker, opened, plan.user, { ...place, mount: opened.mount });
  }

  /** Resolves once the session's shell waits for a command, as it does between a model's turns. */
  commandShellReady(): Promise<void> {
    return this.shell.ready();
  }

  /** Where `program` is on the PATH of the container's commands, or undefined. */
  async which(program: string): Promise<string | undefined> {
    const { stdout } = await this.script('command -v -- "$1" || true', [program]);
    return stdout.split("\n")[0]!.trim() || undefined;
  }

  nextTag(): string {
    return `${this.tagPrefix}-${++this.tags}`;
  }

  async run(request: RunRequest): Promise<Exec> {
    // A command fed through stdin needs an exec's stdin of its own; so does one that comes while the shell is busy.
    const shell = request.fed ? undefined : await this.shell.take();
    if (shell) {
      shell.claim(request);
      shell.send(commandLine(request.tag, request.workingDir, request.command, request.env));
      return shell.exec;
    }
    return startExec(this.docker, this.container, {
      cmd: ["/bin/sh", "-c", RUN_SCRIPT, "keel", request.tag, request.command],
      env: Object.entries(request.env).map(([name, value]) => `${name}=${value}`),
      workingDir: request.workingDir,
      stdin: request.fed,
      ...(this.user && { user: this.user }),
      onStdout: request.onStdout,
      onStderr: request.onStderr,
    });
  }

  script(script: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
    return runScript(this.docker, this.container, ["/bin/sh", "-c", script, "keel", ...args], this.user);
  }

  /**
   * Removes the container keel created; in an attached one, stops what this session started (if it started
   * anything). Once.
   */
  close(): Promise<void> {
    this.shell.close();
    if (!this.created && this.tags === 0) return Promise.resolve();
    this.closing ??= this.created
      ? this.container.remove({ force: true, v: true }).then(
          () => undefined,
          (error: unknown) => {
            if ((error as { statusCode?: number }).statusCode !== 404) throw error;
          },
        )
      : this.script(KILL_SCRIPT, [tagPattern(this.tagPrefix, true), "", "1000"]).then(() => undefined);
    return this.closing;
  }
}

interface Opened {
  container: Docker.Container;
  name: string;
  mount: string;
  created: boolean;
}

async function create(
  docker: Docker,
  plan: ContainerPlan,
  log: (text: string) => void,
  signal: AbortSignal | undefined,
): Promise<Opened> {
  const image = plan.image!;
  const mount = plan.mount!;
  await removeOrphans(docker);
  await ensureImage(docker, image, log, signal);
  const name = `keel-${basename(plan.workspace)
    .replace(/[^A-Za-z0-9_.-]/g, "_")
    .slice(0, 40)}-${randomHex(3)}`;
  let container: Docker.Container;
  try {
    container = await docker.createContainer({
      name,
      Image: image,
      Entrypoint: ["/bin/sh", "-c", KEEP_ALIVE],
      Cmd: ["keel"],
      WorkingDir: mount,
      Env: Object.entries(plan.env).map(([key, value]) => `${key}=${value}`),
      ...(plan.user && { User: plan.user }),
      Labels: { [OWNER_LABEL]: `${hostname()}:${process.pid}` },
      HostConfig: {
        Mounts: [
          { Type: "bind", Source: plan.workspace, Target: mount },
          ...(plan.readOnly ?? []).map((path) => ({
            Type: "bind" as const,
            Source: path,
            Target: path,
            ReadOnly: true,
          })),
        ],
        NetworkMode: plan.network,
        ...(plan.memory !== undefined && { Memory: plan.memory }),
        ...(plan.cpus !== undefined && { NanoCpus: Math.round(plan.cpus * 1e9) }),
        ...(plan.pids !== undefined && { PidsLimit: plan.pids }),
      },
    });
  } catch (error) {
    throw new Error(`Cannot create a container from ${image}: ${engineMessage(error)}`);
  }
  try {
    signal?.throwIfAborted();
    await container.start();
    signal?.throwIfAborted();
  } catch (error) {
    await container.remove({ force: true, v: true }).catch(() => {});
    throw new Error(`The container from ${image} does not start: ${engineMessage(error)}`);
  }
  return { container, name, mount, created: true };
}

async function attach(docker: Docker, plan: ContainerPlan): Promise<Opened> {
  const container = docker.getContainer(plan.container!);
  let info: Docker.ContainerInspectInfo;
  try {
    info = await container.inspect();
  } catch (error) {
    throw new Error(
      `Cannot attach to the container "${plan.container}" ("ops-container.container"): ${engineMessage(error)}.`,
    );
  }
  const name = info.Name.replace(/^\//, "");
  if (!info.State.Running)
    throw new Error(`The container ${name} is not running; start it (docker start ${name}) and run keel again.`);
  const bind = info.Mounts.find((m) => m.Type === "bind" && !relative(m.Source, plan.workspace).startsWith(".."));
  if (!bind)
    throw new Error(
      `The container ${name} does not bind-mount the workspace ${plan.workspace}, so keel's file tools and its ` +
        `commands would see different files. Start it with the workspace mounted (-v ${plan.workspace}:/workspace), ` +
        `or set "ops-container.image" to let keel start one.`,
    );
  const mount = posix.join(bind.Destination, relative(bind.Source, plan.workspace));
  if (plan.mount !== undefined && plan.mount !== mount)
    throw new Error(
      `The container ${name} mounts the workspace at ${mount}, not at ${plan.mount} ("ops-container.workspaceMount").`,
    );
  return { container, name, mount, created: false };
}
