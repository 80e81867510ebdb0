/**
 * The event bus: mitt behind a wrapper that makes every handler safe. A handler that throws or rejects never
 * stops the others; its error is published as `plugin_error`, naming the plugin that subscribed.
 */
import mittModule from "mitt";
import type { Emitter } from "mitt";
import type { EventHandler, EventName, EventPayloads, EventSubscriber, PluginRef } from "@keel/extensions-api";

// mitt's CJS-style default export is not callable under NodeNext typing (mitt#191).
const mitt = mittModule as unknown as <T extends Record<string, unknown>>() => Emitter<T>;

type AnyHandler = <K extends EventName>(event: K, payload: EventPayloads[K]) => void | Promise<void>;

/** The owner a subscription is attributed to when its handler fails. */
export const KERNEL: PluginRef = { name: "keel", version: "core" };

export class EventBus {
  private readonly emitter = mitt<Record<string, unknown>>();

  /** Returns how many subscriptions to `event` itself (not `onAny` observers) received it. */
  emit<K extends EventName>(event: K, payload: EventPayloads[K]): number {
    const subscribed = this.emitter.all.get(event)?.length ?? 0;
    this.emitter.emit(event, payload as unknown);
    return subscribed;
  }

  /** Subscribes a handler owned by `owner`; returns the unsubscribe function. */
  on<K extends EventName>(event: K, handler: EventHandler<K>, owner: PluginRef = KERNEL): () => void {
    const safe = (payload: EventPayloads[K]) => this.guard(owner, `event ${event}`, () => handler(payload));
    this.emitter.on(event, safe as never);
    return () => this.emitter.off(event, safe as never);
  }

  onAny(handler: AnyHandler, owner: PluginRef = KERNEL): () => void {
    const safe = (event: EventName, payload: unknown) =>
      this.guard(owner, `event ${String(event)}`, () => handler(event, payload as never));
    this.emitter.on("*", safe as never);
    return () => this.emitter.off("*", safe as never);
  }

  /** A subscriber view bound to one owner, for a plugin's `api.events`. */
  subscriberFor(owner: PluginRef, track: (dispose: () => void) => void): EventSubscriber {
    return {
      on: (event, handler) => {
        const off = this.on(event, handler, owner);
        track(off);
        return off;
      },
      onAny: (handler) => {
        const off = this.onAny(handler, owner);
        track(off);
        return off;
      },
    };
  }

  private guard(owner: PluginRef, phase: string, run: () => void | Promise<void>): void {
    const report = (error: unknown) => {
      // A failing plugin_error handler must not recurse into itself.
      if (phase === "event plugin_error") return;
      this.emit("plugin_error", { plugin: owner, phase, message: errorText(error) });
    };
    try {
      const result = run();
      if (result && typeof (result as Promise<void>).catch === "function") (result as Promise<void>).catch(report);
    } catch (error) {
      report(error);
    }
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
