/**
 * Waiting that abort ends early: retries, scripted delays, polling. Resolves (never rejects) when the time
 * is up or the signal aborts, whichever comes first; callers check `signal.aborted` afterwards.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
