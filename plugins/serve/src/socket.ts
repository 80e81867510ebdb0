/**
 * The WebSocket side: `GET /api/sessions/<id>/socket[?after=<seq>]`, upgraded once the guard lets it in, one
 * protocol message per WebSocket message. A client that cannot keep up (what waits to be sent to it passes
 * `SLOW_CLIENT_BYTES`) is closed rather than held in memory: it reconnects and resumes from the log.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { Guard } from "./guard.ts";
import type { HubClient } from "./hub.ts";
import type { Sessions } from "./sessions.ts";

const SOCKET_PATH = /^\/api\/sessions\/([A-Za-z0-9_-]+)\/socket$/;
const SLOW_CLIENT_BYTES = 16 * 1024 * 1024;
/** A message from a client: a prompt with images is the largest. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** Close codes (4000–4999 are the application's): fallen behind (reconnect), and the session is gone (do not). */
export const TOO_SLOW = 4008;
export const SESSION_CLOSED = 4404;

export function socketServer(guard: Guard, sessions: Sessions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  return {
    upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
      const refusal = guard.check(request);
      const url = new URL(request.url ?? "/", "http://x");
      const hub = sessions.get(SOCKET_PATH.exec(url.pathname)?.[1] ?? "");
      const status = refusal?.status ?? (hub ? undefined : 404);
      if (status !== undefined || !hub) {
        const reason = refusal?.message ?? "no such session";
        socket.end(`HTTP/1.1 ${status} ${reason.replace(/[\r\n]/g, " ")}\r\nConnection: close\r\n\r\n`);
        return;
      }
      const after = url.searchParams.get("after");
      wss.handleUpgrade(request, socket, head, (ws) => {
        const client: HubClient = {
          send(text) {
            if (ws.readyState !== ws.OPEN) return;
            if (ws.bufferedAmount <= SLOW_CLIENT_BYTES) return ws.send(text);
            hub.detach(client);
            ws.close(TOO_SLOW, "too far behind; reconnect to resume");
          },
          end: () => ws.close(SESSION_CLOSED, "the session was closed"),
        };
        hub.attach(client, after === null ? undefined : Number(after));
        ws.on("message", (data, isBinary) => {
          if (!isBinary) void hub.serve(client, data.toString());
        });
        ws.on("close", () => hub.detach(client));
        ws.on("error", () => hub.detach(client));
      });
    },
    close(): void {
      for (const ws of wss.clients as Set<WebSocket>) ws.close(1001, "keel serve is stopping");
      wss.close();
    },
  };
}
