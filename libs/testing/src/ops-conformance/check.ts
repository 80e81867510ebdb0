/**
 * What the cases share: assertions that need no test framework (node:assert), the refusal check every
 * confinement case makes, and a collector for a command's output that a case can wait on.
 */
import { strict as assert } from "node:assert";
import type { ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import type { OpsWorld } from "./types.js";

export { assert };

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
export const decode = (bytes: Uint8Array): string => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

/** The error `run` threw or rejected with; fails when it did neither. */
export async function caught(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  assert.fail("expected an error, but the call succeeded");
}

/**
 * Asserts `error` is the contract's refusal of `path`: a PathAccessError (by name and code, so a backend built
 * against another copy of the contract passes) naming the path as the caller gave it.
 */
export function assertRefused(error: unknown, path: string): void {
  const e = error as { name?: string; code?: string; path?: string; message?: string };
  assert.equal(e.name, "PathAccessError", `expected a PathAccessError for ${JSON.stringify(path)}, got ${String(e)}`);
  assert.equal(e.code, "EPATHACCESS");
  assert.equal(e.path, path);
  assert.ok(e.message?.startsWith(`Path refused: ${JSON.stringify(path)}: `), e.message);
}

/** The contents of the world's `outside/` folder (names and bytes), to compare before and after an attack. */
export async function outsideState(world: OpsWorld): Promise<string> {
  const names = await world.files.list("outside");
  const parts: string[] = [];
  for (const name of names) {
    const bytes = await world.files.read(`outside/${name}`);
    parts.push(`${name}=${bytes ? decode(bytes) : "(folder or unreadable)"}`);
  }
  return parts.join("\n");
}

/** Output of a command, collected in order; `waitFor` resolves once some text has appeared. */
export function collector() {
  const chunks: Uint8Array[] = [];
  const waiters: { needle: string; resolve: () => void }[] = [];
  let text = "";
  let size = 0;
  return {
    onData(chunk: Uint8Array) {
      chunks.push(chunk.slice());
      size += chunk.length;
      text += Buffer.from(chunk).toString("latin1");
      for (const waiter of waiters.splice(0)) {
        if (text.includes(waiter.needle)) waiter.resolve();
        else waiters.push(waiter);
      }
    },
    bytes: () => Buffer.concat(chunks),
    size: () => size,
    text: () => Buffer.concat(chunks).toString("utf8"),
    waitFor(needle: string): Promise<void> {
      if (text.includes(needle)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ needle, resolve }));
    },
  };
}

/** The variable each process case exports first, so every descendant can be found. */
export const MARKER = "KEEL_CONFORMANCE_MARKER";

export interface Started {
  handle: ProcessHandle;
  out: ReturnType<typeof collector>;
  marker: string;
}

/** Starts `command` with a fresh marker exported first. */
export function start(world: OpsWorld, command: string, options: SpawnOptions = {}): Started {
  const out = collector();
  const marker = Math.random().toString(36).slice(2, 12);
  const handle = world.ops.spawn(`export ${MARKER}=${marker}\n${command}`, { onData: out.onData, ...options });
  return { handle, out, marker };
}

/** Asserts that no process the command started is alive. */
export async function assertNothingLeft(world: OpsWorld, started: Started): Promise<void> {
  const left = await world.processesWith!(MARKER, started.marker);
  assert.deepEqual(left, [], `processes the command started are still alive: ${left.join(", ")}`);
}

/** Waits until `condition` holds, looking every few milliseconds; for a state, never a time. */
export async function until(condition: () => Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
