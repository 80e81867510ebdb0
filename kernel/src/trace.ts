/**
 * Startup and shutdown timing for people diagnosing a slow keel: `KEEL_TRACE=1` prints each mark with the
 * milliseconds since the process started. Costs one env lookup when off.
 */
const enabled = Boolean(process.env.KEEL_TRACE);

/**
 * Milliseconds since the process started, on a monotonic clock. Not `performance.now()`: the first read of the
 * `performance` global loads perf_hooks and its timing modules (~0.5 ms), which nothing else on a run's way needs.
 */
export function processMs(): number {
  return process.uptime() * 1000;
}

export function trace(label: string): void {
  if (enabled) process.stderr.write(`[keel trace] ${processMs().toFixed(1)} ms ${label}\n`);
}
