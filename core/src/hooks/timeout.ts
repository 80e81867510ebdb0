/**
 * Runs one handler with its own AbortSignal and a deadline. The signal aborts when the deadline passes or the
 * outer signal aborts, so a well-behaved handler can stop its work; a handler that ignores it is abandoned.
 */
export class HandlerTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = "HandlerTimeout";
  }
}

export async function runWithDeadline<T>(
  ms: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => T | Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = Number.isFinite(ms)
    ? new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new HandlerTimeout(ms);
          controller.abort(error);
          reject(error);
        }, ms);
      })
    : undefined;
  try {
    const work = Promise.resolve().then(() => run(controller.signal));
    return await (deadline ? Promise.race([work, deadline]) : work);
  } finally {
    if (timer) clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}
