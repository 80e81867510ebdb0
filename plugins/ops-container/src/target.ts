/**
 * What a command needs of the container it runs in: its name for messages, and execs. The container session
 * (container.ts) is one; tests may give another.
 */
import type { Exec, ExecRequest } from "./exec.ts";

export interface ContainerTarget {
  /** Its name, for messages. */
  readonly name: string;
  /** Starts an exec as the session's user. */
  exec(request: Omit<ExecRequest, "user">): Promise<Exec>;
  /** Runs one of keel's scripts (`/bin/sh -c script keel args…`) to its end. */
  script(script: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
}
