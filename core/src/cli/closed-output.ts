/**
 * A reader that stops early (`keel -p … --mode json | head -1`) closes keel's stdout, and every later write
 * fails (EPIPE). Unhandled, each failure was reported as a plugin error — in JSON mode an event written to the
 * same closed output — and keel spun, writing gigabytes to stderr, deaf to SIGTERM. As a Unix tool does on
 * SIGPIPE, keel now ends the run, shuts down (plugins still stop what they started) and exits 141 (128 + 13).
 * A failed write to stderr is ignored: there is nowhere left to say anything.
 */

export const CLOSED_OUTPUT_EXIT = 141;

export interface Stoppable {
  abort(): void;
  shutdown(reason: "signal"): Promise<void>;
}

/** Ends `runtime` and the process when stdout's reader is gone. */
export function endOnClosedOutput(runtime: Stoppable, exit: (code: number) => void = process.exit): void {
  let ending = false;
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    // Any other failure is what it was before this listener: an uncaught error.
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
    if (ending) return;
    ending = true;
    // What launch.ts's exitAfterFlush reads: the process ends 141 whichever exit comes first.
    process.exitCode = CLOSED_OUTPUT_EXIT;
    runtime.abort();
    void runtime.shutdown("signal").finally(() => exit(CLOSED_OUTPUT_EXIT));
  };
  process.stdout.on("error", onStdoutError);
  process.stderr.on("error", () => undefined);
}
