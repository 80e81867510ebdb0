/**
 * One exec in the container through the Docker Engine API: created, started on a hijacked connection without a
 * TTY, so stdout and stderr arrive apart (the API multiplexes them in frames, which the modem splits), with
 * stdin attached only when it is fed. Every error says which container and what the engine answered.
 */
import type { Duplex } from "node:stream";
import type Docker from "dockerode";

export interface ExecRequest {
  cmd: string[];
  /** `NAME=value` entries added to the container's environment. */
  env?: string[];
  workingDir?: string;
  user?: string;
  /** Attach stdin so `Exec.write` can feed it. */
  stdin?: boolean;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

export interface Exec {
  /** Resolves when the output ends (the exec's process exited), or rejects with why it broke. */
  readonly ended: Promise<void>;
  write(data: string | Uint8Array): void;
  /** Closes stdin: the process reads end of input. */
  endInput(): void;
  /**
   * Drops the connection (output still coming is not read). The session's shell (shell.ts) is handed back
   * instead, and kept when `reusable` (its command ended leaving nothing behind).
   */
  close(reusable?: boolean): void;
}

/** A frame sink for the modem's demultiplexer, which only calls `write`. */
function sink(onChunk: (chunk: Buffer) => void): NodeJS.WritableStream {
  return { write: (chunk: Buffer) => (onChunk(chunk), true) } as unknown as NodeJS.WritableStream;
}

/** What the engine said, in one line: the modem's errors carry the answer's JSON message. */
export function engineMessage(error: unknown): string {
  const e = error as { json?: { message?: string }; message?: string; code?: string };
  return (e.json?.message ?? e.message ?? String(error)).trim();
}

export async function startExec(docker: Docker, container: Docker.Container, request: ExecRequest): Promise<Exec> {
  const exec = await container.exec({
    Cmd: request.cmd,
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: request.stdin === true,
    Tty: false,
    ...(request.env && { Env: request.env }),
    ...(request.workingDir && { WorkingDir: request.workingDir }),
    ...(request.user && { User: request.user }),
  });
  const stream = (await exec.start({ hijack: true, stdin: request.stdin === true })) as Duplex;
  docker.modem.demuxStream(stream, sink(request.onStdout), sink(request.onStderr));
  const ended = new Promise<void>((resolve, reject) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
    // Every error, not only the first: a write racing the process's end must not become an uncaught one.
    stream.on("error", reject);
  });
  const open = () => !stream.destroyed && !stream.writableEnded;
  return {
    ended,
    write: (data) => void (open() && stream.write(data)),
    endInput: () => void (open() && stream.end()),
    close: () => void stream.destroy(),
  };
}

/** Runs a script to its end and returns what it printed, for keel's own short scripts. */
export async function runScript(
  docker: Docker,
  container: Docker.Container,
  cmd: string[],
  user?: string,
): Promise<{ stdout: string; stderr: string }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const exec = await startExec(docker, container, {
    cmd,
    ...(user && { user }),
    onStdout: (chunk) => out.push(chunk),
    onStderr: (chunk) => err.push(chunk),
  });
  await exec.ended;
  return { stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}
