/**
 * Runs one command hook: `sh -c command` (or the hook's `shell`) in its own process group with the event JSON on
 * stdin. A timeout or an abort kills the whole group, so a script's children (a `sleep`, a backgrounded curl) go
 * with it.
 */
import { spawn } from "node:child_process";

/** What a hook run produced: an exit code (null when killed), its output, and whether it ran out of time. */
export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not run at all (spawn failure, connection refused). */
  failure?: string;
}

/** More output than this is cut: a reason or a context is text for a model, not a log. */
const MAX_OUTPUT = 1 << 20;

export function runCommandHook(
  command: string,
  input: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; signal: AbortSignal; shell?: string },
): Promise<HookRun> {
  return new Promise((resolve) => {
    const child = spawn(options.shell ?? "/bin/sh", ["-c", command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    options.signal.addEventListener("abort", killGroup, { once: true });
    child.stdout.setEncoding("utf8").on("data", (d: string) => stdout.length < MAX_OUTPUT && (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => stderr.length < MAX_OUTPUT && (stderr += d));
    // A script that never reads its stdin closes the pipe early; that is not a failure.
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
    const finish = (run: HookRun) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", killGroup);
      resolve(run);
    };
    child.on("error", (error) => finish({ code: null, stdout, stderr, timedOut, failure: error.message }));
    // "close", not "exit": the output is complete only when every process holding the pipes is done.
    child.on("close", (code) => {
      if (timedOut) killGroup();
      finish({ code, stdout, stderr, timedOut });
    });
  });
}
