/**
 * The boundary of a confined plugin (core/src/confine/wire.ts), between two endpoints in this process that pass
 * messages through structuredClone as Node's advanced IPC serialisation does.
 */
import { describe, expect, it } from "vitest";
import { z } from "@keel/extensions-api";
import { Endpoint, type WireMessage } from "../../core/src/confine/wire.ts";

function pair(): { keel: Endpoint; plugin: Endpoint } {
  const queue = (to: () => Endpoint) => (m: WireMessage) => queueMicrotask(() => to().receive(structuredClone(m)));
  const keel: Endpoint = new Endpoint(queue(() => plugin));
  const plugin: Endpoint = new Endpoint(queue(() => keel));
  return { keel, plugin };
}

/** Sends `value` from keel's side and returns it as the plugin's side sees it. */
function across<T>(value: T): Promise<T> {
  const { keel, plugin } = pair();
  return new Promise((resolve) => {
    plugin.onApp = (body) => resolve(body as T);
    keel.sendApp(value);
  });
}

describe("the confined plugin's wire", () => {
  it("calls functions across and back, with their results and thrown errors", async () => {
    const api = await across({
      add: (a: number, b: number) => a + b,
      fail: () => {
        throw Object.assign(new Error("nope"), { code: "E_NOPE" });
      },
      twice: async (fn: (n: number) => Promise<number>) => (await fn(2)) * 2,
    });
    expect(await api.add(2, 3)).toBe(5);
    await expect((async () => api.fail())()).rejects.toMatchObject({ message: "nope", code: "E_NOPE" });
    expect(await api.twice(async (n) => n + 1)).toBe(6);
  });

  it("aborts a signal on the other side when the original aborts", async () => {
    const controller = new AbortController();
    const { signal } = await across({ signal: controller.signal });
    const aborted = new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason)));
    controller.abort(new Error("the user aborted"));
    expect(await aborted).toMatchObject({ message: "the user aborted" });
  });

  it("settles promises and pulls async iterables a value at a time", async () => {
    async function* stream() {
      yield { type: "start" };
      yield { type: "done" };
    }
    const value = await across({ exited: Promise.resolve({ code: 0 }), events: stream() });
    expect(await value.exited).toEqual({ code: 0 });
    const seen: unknown[] = [];
    for await (const event of value.events) seen.push(event);
    expect(seen).toEqual([{ type: "start" }, { type: "done" }]);
  });

  it("keeps a method's this, a class instance's getters, and undefined, Map and BigInt values", async () => {
    class Backend {
      private readonly root = "/w";
      get cwd() {
        return this.root;
      }
      resolve(path: string) {
        return `${this.root}/${path}`;
      }
    }
    const value = await across({ ops: new Backend(), none: undefined, map: new Map([["a", 1n]]) });
    expect(value.ops.cwd).toBe("/w");
    expect(await value.ops.resolve("x")).toBe("/w/x");
    expect("none" in value && value.none === undefined).toBe(true);
    expect(value.map.get("a")).toBe(1n);
  });

  it("sends a zod schema as JSON Schema and validates with it on the other side", async () => {
    const { parameters } = await across({ parameters: z.object({ path: z.string(), limit: z.number().optional() }) });
    expect(parameters.safeParse({ path: "a" }).success).toBe(true);
    expect(parameters.safeParse({ path: 3 }).success).toBe(false);
  });

  it("reads a provider's models and a tool's offered without a call", async () => {
    const { models } = await across({ models: () => [{ id: "m1" }] });
    expect(models()).toEqual([{ id: "m1" }]);
  });

  it("fails pending calls with why when the other side goes away", async () => {
    const { keel, plugin } = pair();
    const api = await new Promise<{ never: () => Promise<never> }>((resolve) => {
      plugin.onApp = (body) => resolve(body as never);
      keel.sendApp({ never: () => new Promise(() => {}) });
    });
    const pending = api.never();
    plugin.close("the plugin's host process ended (exit code 1)");
    await expect(pending).rejects.toThrow("exit code 1");
  });
});
