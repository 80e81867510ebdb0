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

/** What a handler is given: its signal, made when first read (most handlers never read it). */
export interface HandlerScope {
  readonly signal: AbortSignal;
}

/**
 * Runs `run` on a later microtask (a synchronous throw becomes a rejection) and settles with it, or rejects
 * with `HandlerTimeout` after `ms`. Hooks run several handlers per tool call, so the signal, its controller
 * and the listener on `outer` are made only for a handler that reads `scope.signal`.
 */
export function runWithDeadline<T>(
  ms: number,
  outer: AbortSignal | undefined,
  run: (scope: HandlerScope) => T | Promise<T>,
): Promise<T> {
  let controller: AbortController | undefined;
  let timedOut: HandlerTimeout | undefined;
  let onOuterAbort: (() => void) | undefined;
  const scope: HandlerScope = {
    get signal() {
      if (!controller) {
        const made = new AbortController();
        controller = made;
        if (timedOut) made.abort(timedOut);
        else if (outer?.aborted) made.abort(outer.reason);
        else if (outer) {
          onOuterAbort = () => made.abort(outer.reason);
          outer.addEventListener("abort", onOuterAbort, { once: true });
        }
      }
      return controller.signal;
    },
  };
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      clearTimeout(timer);
      if (onOuterAbort) outer?.removeEventListener("abort", onOuterAbort);
    };
    if (Number.isFinite(ms))
      timer = setTimeout(() => {
        timedOut = new HandlerTimeout(ms);
        controller?.abort(timedOut);
        settle();
        reject(timedOut);
      }, ms);
    Promise.resolve()
      .then(() => run(scope))
      .then(
        (value) => (settle(), resolve(value)),
        (error: unknown) => (settle(), reject(error)),
      );
  });
}
