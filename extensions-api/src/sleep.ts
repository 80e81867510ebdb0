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

/**
 * A controller that aborts with `parent` (at once if it already has) and may also be aborted on its own (a
 * deadline, a silent server), until `release()` removes its one listener from the parent. Cheaper than
 * `AbortSignal.any` (12–33 µs a signal on Node 20, and a weak reference the parent keeps until a collection),
 * which matters on paths taken per tool call or per request.
 */
export function childController(parent: AbortSignal): { controller: AbortController; release(): void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, release: () => undefined };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { controller, release: () => parent.removeEventListener("abort", onAbort) };
}
