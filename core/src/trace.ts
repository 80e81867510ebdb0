/**
 * Startup and shutdown timing for people diagnosing a slow keel: `KEEL_TRACE=1` prints each mark with the
 * milliseconds since the process started. Costs one env lookup when off.
 */
const enabled = Boolean(process.env.KEEL_TRACE);

export function trace(label: string): void {
  if (enabled) process.stderr.write(`[keel trace] ${performance.now().toFixed(1)} ms ${label}\n`);
}
