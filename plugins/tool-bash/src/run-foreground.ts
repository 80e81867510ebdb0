/**
 * One foreground command: run it through `ctx.ops.spawn`, stream progress, stop it on timeout or abort, and
 * once the shell exits stop whatever it left running, so a call never leaves processes behind.
 */
import type { ToolContext, ToolResult } from "@keel/extensions-api";
import { logPath } from "./log-path.ts";
import { OutputLog } from "./output-log.ts";
import { NON_INTERACTIVE_ENV, type BashSettings } from "./settings.ts";
import { showTail } from "./shown-output.ts";

/** What a bash result carries besides its text (for UIs and sessions). */
export interface BashDetails {
  /** The shell's pid, which is also its process group id. */
  pid: number | undefined;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  totalBytes: number;
  totalLines: number;
  truncated: boolean;
  /** The whole output, when it was cut for the model. */
  fullOutputPath?: string;
}

/** In memory: the recent output, ample for the 50 KB the model sees; beyond `HOLD_BYTES` the log file starts. */
const TAIL_BYTES = 256 * 1024;
const HOLD_BYTES = 1024 * 1024;
const PROGRESS_EVERY_MS = 250;

export async function runForeground(
  command: string,
  timeoutSeconds: number,
  settings: BashSettings,
  ctx: ToolContext,
): Promise<ToolResult<BashDetails>> {
  const started = Date.now();
  const log = new OutputLog({
    path: logPath(ctx.dataDir, "bash", ctx.toolCallId),
    tailBytes: TAIL_BYTES,
    holdBytes: HOLD_BYTES,
    maxFileBytes: settings.maxLogBytes,
  });
  if (ctx.signal.aborted)
    return finish(log, { pid: undefined, exitCode: null, signal: null, stop: "aborted", started });

  let listening = true;
  const progress = throttle(() => {
    const { bytes, start } = log.recent();
    ctx.update({
      content: showTail(bytes, start > 0, log).text,
      details: { running: true, totalBytes: log.totalBytes },
    });
  }, PROGRESS_EVERY_MS);
  const handle = ctx.ops.spawn(command, {
    env: { ...NON_INTERACTIVE_ENV },
    onData(chunk) {
      if (!listening) return;
      log.push(chunk);
      progress.schedule();
    },
  });

  let stop: "timeout" | "aborted" | undefined;
  const stopWith = (reason: "timeout" | "aborted") => () => {
    stop ??= reason;
    void handle.kill(settings.killGraceMs);
  };
  const timer = setTimeout(stopWith("timeout"), timeoutSeconds * 1000);
  const onAbort = stopWith("aborted");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    // A backend that loses track of a command (its long-lived shell died) rejects with why, after stopping
    // the command's processes; the output so far is still the model's to see.
    const exit = await handle.exited.catch((error: Error) => ({ lost: error.message }));
    listening = false;
    if ("lost" in exit)
      return finish(log, { pid: handle.pid, exitCode: null, signal: null, stop, lost: exit.lost, started });
    // Background children the command started (`server &`) would outlive the call; bash is not the place
    // for them (`background: true` is), so the whole tree goes now.
    await handle.kill(settings.killGraceMs);
    return finish(log, { pid: handle.pid, exitCode: exit.code, signal: exit.signal, stop, started });
  } finally {
    listening = false;
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    progress.cancel();
  }

  function finish(
    output: OutputLog,
    end: {
      pid: number | undefined;
      exitCode: number | null;
      signal: string | null;
      stop?: "timeout" | "aborted";
      /** Why the backend cannot say how the command ended. */
      lost?: string;
      started: number;
    },
  ): ToolResult<BashDetails> {
    const { bytes, start } = output.recent();
    // The file is written exactly when the output is cut, so the note may name it before it exists.
    const shown = showTail(bytes, start > 0, {
      totalBytes: output.totalBytes,
      totalLines: output.totalLines,
      fullOutputPath: output.path,
    });
    const fullOutputPath = output.finish(shown.truncated);
    // The output, a blank line, then what the model should know about it, one bracketed line each.
    const body = shown.text.replace(/\n$/, "");
    const lines: string[] = [];
    if (shown.note) lines.push(shown.note);
    if (output.fileDropped > 0)
      lines.push(
        `[The full-output file holds the first ${output.totalBytes - output.fileDropped} bytes; the ` +
          `rest was not kept.]`,
      );
    if (end.stop === "timeout") {
      lines.push(
        `[Timed out after ${timeoutSeconds} s: the command and every process it started were ` +
          `killed. Pass a larger timeout for a slow command; run servers and watchers with background: true.]`,
      );
    } else if (end.stop === "aborted") {
      lines.push("[Aborted: the command and every process it started were killed.]");
    } else if (end.lost !== undefined) {
      lines.push(`[${end.lost}]`);
    } else {
      lines.push(end.exitCode !== null ? `[Exit code: ${end.exitCode}]` : `[Killed by ${end.signal}]`);
    }
    return {
      content: `${body.length > 0 ? body : "(no output)"}\n\n${lines.join("\n")}`,
      isError: end.stop !== undefined || end.lost !== undefined,
      details: {
        pid: end.pid,
        exitCode: end.exitCode,
        signal: end.signal,
        timedOut: end.stop === "timeout",
        aborted: end.stop === "aborted",
        durationMs: Date.now() - end.started,
        totalBytes: output.totalBytes,
        totalLines: output.totalLines,
        truncated: shown.truncated,
        fullOutputPath,
      },
    };
  }
}

/** Calls `fn` at most once per `ms`, and once more after the last call of a burst. */
function throttle(fn: () => void, ms: number) {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    timer = undefined;
    last = Date.now();
    fn();
  };
  return {
    schedule() {
      if (timer) return;
      const wait = last + ms - Date.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
