/**
 * The session's events as protocol messages: each event's line (`eventLine`), with what plugins render for it
 * (`rendered`) when they do. Every transport sends the same objects.
 */
import type { Runtime } from "@keel/extensions-api";
import { EventRendering } from "@keel/extensions-api/render";
import { eventLine, type RpcEvent } from "@keel/rpc-client/protocol";

/** Hands every event of `runtime` to `send` as its message; returns the unsubscribe function. */
export function onEventLines(runtime: Runtime, send: (event: RpcEvent) => void): () => void {
  const rendering = new EventRendering(() => runtime.ui());
  return runtime.events.onAny((type, payload) => {
    const rendered = rendering.lines(type, payload);
    send({ ...eventLine(type, payload), ...(rendered && { rendered }) });
  });
}
