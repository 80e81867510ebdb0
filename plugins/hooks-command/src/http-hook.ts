/**
 * Runs one `http` hook: POSTs the event JSON to the URL. A 2xx answer's body is read like a command's stdout
 * (JSON output or nothing); any other status is a non-blocking error, like a command's exit code 1.
 */
import type { HttpHook } from "./config.ts";
import type { HookRun } from "./spawn-hook.ts";

export async function runHttpHook(
  hook: HttpHook,
  input: string,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<HookRun> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(hook.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...hook.headers },
      body: input,
      signal: AbortSignal.any([options.signal, timeout]),
    });
    const body = await response.text();
    if (response.ok) return { code: 0, stdout: body, stderr: "", timedOut: false };
    return {
      code: 1,
      stdout: "",
      stderr: `HTTP ${response.status} from ${hook.url}: ${body.slice(0, 500)}`,
      timedOut: false,
    };
  } catch (error) {
    if (timeout.aborted) return { code: null, stdout: "", stderr: "", timedOut: true };
    return { code: null, stdout: "", stderr: "", timedOut: false, failure: `${hook.url}: ${(error as Error).message}` };
  }
}
