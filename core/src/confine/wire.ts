/**
 * The boundary between keel and a confined plugin's host process: each side hands the other values, and what
 * cannot be copied crosses as a reference. A function becomes a stub that calls it remotely (resolving to its
 * result), an AbortSignal one that aborts when the original does, a promise one that settles with it, an async
 * iterable one pulled a value at a time, an error a copy with its name, message and code. So `definePlugin`'s
 * contract (tools with `ctx.signal` and `ctx.update`, hooks, providers streaming) needs no change of its author.
 *
 * A stub calls asynchronously: what a plugin would call synchronously across it is the two sides' business (the
 * values snapshotted in `SNAPSHOT_KEYS`, `spawn` in `remote-handle.ts`, `api.session` and `api.runtime`).
 */
import { marshalSchema, unmarshalSchema, isSchema } from "./wire-schema.js";
import { BoundMethods, crossingEntries } from "./wire-objects.js";

/** A message between the two sides. */
export type WireMessage =
  | { t: "call"; id: number; fn: number; args: unknown[] }
  | { t: "ret"; id: number; ok: boolean; value: unknown }
  | { t: "abort"; signal: number; reason: unknown }
  | { t: "settle"; promise: number; ok: boolean; value: unknown }
  | { t: "release"; fn: number; count: number }
  | { t: "app"; body: unknown };

/** Keys whose function is called when its object crosses: the other side reads the value without a call. */
const SNAPSHOT_KEYS = new Set(["models", "offered"]);

type Tagged =
  | { $k: "fn"; id: number; count: number; snapshot?: unknown; key?: string }
  | { $k: "signal"; id: number; aborted: boolean; reason: unknown }
  | { $k: "promise"; id: number }
  | { $k: "iter"; next: Tagged; ret: Tagged }
  | { $k: "error"; name: string; message: string; stack?: string; code?: unknown; data?: unknown }
  | { $k: "schema"; json: unknown }
  | { $k: "undefined" };

const CONTROLLER = Symbol("keel.controller");
const isTagged = (v: unknown): v is Tagged => typeof v === "object" && v !== null && "$k" in v;
const isPlain = (proto: unknown) => proto === Object.prototype || proto === null;
const LEAF = [Date, RegExp, ArrayBuffer];

export class Endpoint {
  private nextId = 1;
  private readonly exported = new Map<number, { fn: Function; count: number }>();
  private readonly ids = new WeakMap<Function, number>();
  private readonly stubs = new Map<number, WeakRef<Function>>();
  private readonly calls = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  /** Signals the other side exported, weakly: a signal holds its controller (CONTROLLER), so it lives as long. */
  private readonly signals = new Map<number, WeakRef<AbortController>>();
  private readonly methods = new BoundMethods();
  private readonly promises = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private readonly released = new FinalizationRegistry<{ fn: number; count: number }>((held) => {
    this.stubs.delete(held.fn);
    if (!this.closed) this.send({ t: "release", ...held });
  });
  private closed = false;
  /** Messages of the layer above (`{ t: "app" }`). */
  onApp: (body: unknown) => void = () => {};
  /** Told when calls start waiting (true) and when none waits any more (false): keel keeps running meanwhile. */
  onBusy: (busy: boolean) => void = () => {};
  /** Runs before each call is sent: the layer above sends what the other side must know first. */
  beforeCall: () => void = () => {};

  constructor(private readonly send: (message: WireMessage) => void) {}

  /** Ends every pending call with `why` (the other side went away); later calls fail at once. */
  close(why: string): void {
    this.closed = true;
    for (const call of this.calls.values()) call.reject(new Error(why));
    if (this.calls.size > 0) this.onBusy(false);
    this.calls.clear();
    for (const controller of this.signals.values()) controller.deref()?.abort(new Error(why));
  }

  sendApp(body: unknown): void {
    this.send({ t: "app", body: this.marshal(body) });
  }

  /** Handles one message from the other side. */
  receive(message: WireMessage): void {
    switch (message.t) {
      case "call":
        return void this.answer(message);
      case "ret": {
        const call = this.calls.get(message.id);
        if (this.calls.delete(message.id) && this.calls.size === 0) this.onBusy(false);
        const value = this.unmarshal(message.value);
        return call && (message.ok ? call.resolve(value) : call.reject(value));
      }
      case "abort":
        return this.signals.get(message.signal)?.deref()?.abort(this.unmarshal(message.reason));
      case "settle": {
        const promise = this.promises.get(message.promise);
        this.promises.delete(message.promise);
        const value = this.unmarshal(message.value);
        return promise && (message.ok ? promise.resolve(value) : promise.reject(value));
      }
      case "release": {
        const entry = this.exported.get(message.fn);
        if (entry && entry.count === message.count) {
          this.exported.delete(message.fn);
          this.ids.delete(entry.fn);
        }
        return;
      }
      case "app":
        return this.onApp(this.unmarshal(message.body));
    }
  }

  /** Calls the other side's function `fn` (a stub's id). */
  call(fn: number, args: unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error("the plugin's host process has ended"));
    this.beforeCall();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      if (this.calls.size === 1) this.onBusy(true);
      this.send({ t: "call", id, fn, args: args.map((a) => this.marshal(a)) });
    });
  }

  private async answer(message: Extract<WireMessage, { t: "call" }>): Promise<void> {
    const entry = this.exported.get(message.fn);
    let ok = true;
    let value: unknown;
    try {
      if (!entry) throw new Error(`keel: a function of the other side is gone (${message.fn})`);
      value = await entry.fn(...message.args.map((a) => this.unmarshal(a)));
    } catch (error) {
      ok = false;
      value = error;
    }
    if (!this.closed) this.send({ t: "ret", id: message.id, ok, value: this.marshal(value) });
  }

  private exportFn(fn: Function): { id: number; count: number } {
    let id = this.ids.get(fn);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(fn, id);
      this.exported.set(id, { fn, count: 0 });
    }
    const entry = this.exported.get(id)!;
    entry.count++;
    return { id, count: entry.count };
  }

  /** `value` as it crosses: data copied, everything else a reference. */
  marshal(value: unknown, key?: string, seen = new Set<object>()): unknown {
    if (value === undefined) return { $k: "undefined" };
    if (value === null || typeof value !== "object") {
      if (typeof value !== "function") return value;
      const fn = value as Function;
      const tagged: Tagged = { $k: "fn", ...this.exportFn(fn), ...(key ? { key } : {}) };
      if (key && SNAPSHOT_KEYS.has(key)) {
        try {
          tagged.snapshot = this.marshal(fn());
        } catch {
          // No snapshot: the other side calls it when it is read.
        }
      }
      return tagged;
    }
    if (value instanceof AbortSignal) return this.exportSignal(value);
    if (value instanceof Error) return this.exportError(value);
    if (value instanceof Promise) return this.exportPromise(value);
    if (isSchema(value)) return marshalSchema(value);
    if (ArrayBuffer.isView(value) || LEAF.some((C) => value instanceof C)) return value;
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.marshal(v, undefined, seen));
      if (value instanceof Map)
        return new Map(
          [...value].map(([k, v]) => [this.marshal(k, undefined, seen), this.marshal(v, undefined, seen)]),
        );
      if (value instanceof Set) return new Set([...value].map((v) => this.marshal(v, undefined, seen)));
      if (Symbol.asyncIterator in value && !isPlain(Object.getPrototypeOf(value)))
        return this.exportIterable(value as AsyncIterable<unknown>);
      return this.marshalObject(value as Record<string, unknown>, seen);
    } finally {
      seen.delete(value);
    }
  }

  private marshalObject(value: Record<string, unknown>, seen: Set<object>): Record<string, unknown> {
    if (Symbol.asyncIterator in value) return this.exportIterable(value as unknown as AsyncIterable<unknown>);
    const out: Record<string, unknown> = {};
    for (const [name, item] of crossingEntries(value, this.methods)) out[name] = this.marshal(item, name, seen);
    return out;
  }

  private exportSignal(signal: AbortSignal): Tagged {
    const id = this.nextId++;
    if (!signal.aborted)
      signal.addEventListener(
        "abort",
        () => this.send({ t: "abort", signal: id, reason: this.marshal(signal.reason) }),
        {
          once: true,
        },
      );
    return { $k: "signal", id, aborted: signal.aborted, reason: this.marshal(signal.reason) };
  }

  private exportError(error: Error): Tagged {
    const { code, data } = error as Error & { code?: unknown; data?: unknown };
    return { $k: "error", name: error.name, message: error.message, stack: error.stack, code, data };
  }

  private exportPromise(promise: Promise<unknown>): Tagged {
    const id = this.nextId++;
    promise.then(
      (value) => !this.closed && this.send({ t: "settle", promise: id, ok: true, value: this.marshal(value) }),
      (error: unknown) =>
        !this.closed && this.send({ t: "settle", promise: id, ok: false, value: this.marshal(error) }),
    );
    return { $k: "promise", id };
  }

  private exportIterable(iterable: AsyncIterable<unknown>): Record<string, unknown> {
    const iterator = iterable[Symbol.asyncIterator]();
    const next = () => iterator.next();
    const ret = async () => (await iterator.return?.()) ?? { done: true, value: undefined };
    return { $k: "iter", next: this.marshal(next), ret: this.marshal(ret) };
  }

  /** A value from the other side, with its references made live. */
  unmarshal(value: unknown): unknown {
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
    if (Array.isArray(value)) return value.map((v) => this.unmarshal(v));
    if (LEAF.some((C) => value instanceof C)) return value;
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [this.unmarshal(k), this.unmarshal(v)]));
    if (value instanceof Set) return new Set([...value].map((v) => this.unmarshal(v)));
    if (!isTagged(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.unmarshal(v)]));
    switch (value.$k) {
      case "undefined":
        return undefined;
      case "fn":
        return this.stub(value);
      case "signal":
        return this.importSignal(value);
      case "promise":
        return new Promise((resolve, reject) => this.promises.set(value.id, { resolve, reject }));
      case "iter":
        return this.importIterable(value);
      case "error":
        return Object.assign(new Error(value.message), value.code === undefined ? {} : { code: value.code }, {
          name: value.name,
          stack: `${value.name}: ${value.message}\n    (in the plugin's host process)\n${value.stack ?? ""}`,
          ...(value.data === undefined ? {} : { data: value.data }),
        });
      case "schema":
        return unmarshalSchema(value.json);
    }
  }

  private stub(tagged: Extract<Tagged, { $k: "fn" }>): Function {
    const existing = this.stubs.get(tagged.id)?.deref();
    if (existing && tagged.snapshot === undefined) return existing;
    const remote = (...args: unknown[]) => this.call(tagged.id, args);
    let stub: Function = remote;
    if (tagged.snapshot !== undefined) {
      // Read synchronously by the other side (a provider's models, a tool's offered): the last value, refreshed.
      let last = this.unmarshal(tagged.snapshot);
      stub = () => {
        void remote().then(
          (v) => (last = v),
          () => {},
        );
        return last;
      };
    }
    this.stubs.set(tagged.id, new WeakRef(stub));
    this.released.register(stub, { fn: tagged.id, count: tagged.count });
    return stub;
  }

  private importSignal(tagged: Extract<Tagged, { $k: "signal" }>): AbortSignal {
    const controller = new AbortController();
    if (tagged.aborted) controller.abort(this.unmarshal(tagged.reason));
    else this.signals.set(tagged.id, new WeakRef(controller));
    Object.defineProperty(controller.signal, CONTROLLER, { value: controller });
    controller.signal.addEventListener("abort", () => this.signals.delete(tagged.id), { once: true });
    return controller.signal;
  }

  private importIterable(tagged: Extract<Tagged, { $k: "iter" }>): AsyncIterable<unknown> {
    const next = this.unmarshal(tagged.next) as () => Promise<IteratorResult<unknown>>;
    const ret = this.unmarshal(tagged.ret) as () => Promise<IteratorResult<unknown>>;
    return { [Symbol.asyncIterator]: () => ({ next, return: ret }) };
  }
}
