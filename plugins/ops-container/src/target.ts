/**
 * What a command needs of the container it runs in: its name for messages, an exec running the command, and
 * one running keel's own scripts. The container session (container.ts) is one.
 */
import type { Exec } from "./exec.ts";

export interface RunRequest {
  tag: string;
  command: string;
  /** The folder in the container the command starts in, already confined. */
  workingDir: string;
  /** Variables added to the container's environment. */
  env: Record<string, string>;
  /** Whether keel feeds stdin (and ends it); otherwise the command reads end of input at once. */
  fed: boolean;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

export interface ContainerTarget {
  /** Its name, for messages. */
  readonly name: string;
  /** Starts an exec running the command through the run script (scripts.ts), as the session's user. */
  run(request: RunRequest): Promise<Exec>;
  /** Runs one of keel's scripts (`/bin/sh -c script keel args…`) to its end. */
  script(script: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
}
