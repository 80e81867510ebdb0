/**
 * A mock LLM server on 127.0.0.1 that speaks OpenAI Chat Completions, OpenAI Responses and Anthropic
 * Messages byte-faithfully. It plays a script of turns (one per request) and injects faults on demand.
 *
 * ```ts
 * const llm = await startMockLlm([{ reply: { text: "hi" } }]);
 * process.env.OPENAI_BASE_URL = llm.url + "/v1";
 * ...
 * await llm.close();
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { applyFault, render, type Plan } from "./render.ts";
import type { MockTurn, RecordedRequest, WireFormatName } from "./types.ts";

export interface MockLlm {
  /** `http://127.0.0.1:<port>`; formats are chosen by path, so any prefix (`/v1`) works. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Connections the client closed before the server finished (aborts). */
  readonly clientClosed: number;
  /** Adds turns to the end of the script. */
  push(...turns: MockTurn[]): void;
  /** Turns not yet played. */
  remaining(): number;
  close(): Promise<void>;
}

export function formatOf(path: string): WireFormatName | "unknown" {
  if (path.endsWith("/chat/completions")) return "openai";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith("/messages")) return "anthropic";
  return "unknown";
}

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

export async function startMockLlm(script: MockTurn[] = []): Promise<MockLlm> {
  const turns = [...script];
  const requests: RecordedRequest[] = [];
  const started = Date.now();
  let clientClosed = 0;
  const sockets = new Set<import("node:net").Socket>();

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0]!;
    const format = formatOf(path);
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    requests.push({ format, path, headers: req.headers, body, at: Date.now() - started });
    const n = requests.length;
    const turn = turns.shift();
    if (req.method !== "POST" || format === "unknown")
      return json(res, 404, { error: { message: `mock-llm: no route for ${req.method} ${path}`, type: "not_found" } });
    if (!turn)
      return json(res, 400, {
        error: { message: `mock-llm: the script has no turn left for request #${n}`, type: "invalid_request_error" },
      });
    if ("status" in turn)
      return json(
        res,
        turn.status,
        turn.body ?? { error: { message: `mock-llm status ${turn.status}`, type: "mock_error" } },
        turn.headers,
      );

    let plan: Plan;
    if ("raw" in turn) plan = { body: turn.raw, then: "end" };
    else plan = applyFault(render(format, turn.reply, String(body?.model ?? "mock-model"), n), turn.fault);
    res.writeHead(200, { ...SSE_HEADERS, ...turn.headers });
    res.on("close", () => {
      if (!res.writableFinished) clientClosed++;
    });
    await write(res, Buffer.from(plan.body, "utf8"), turn.writeBytes, turn.writeDelayMs);
    if (plan.then === "end") res.end();
    else if (plan.then === "reset") res.socket?.destroy();
    else if (typeof plan.then === "object") {
      const timer = setInterval(() => res.write(": ping\n\n"), plan.then.pingEveryMs);
      res.on("close", () => clearInterval(timer));
    }
    // "hang": leave it open; the client's abort closes it.
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get clientClosed() {
      return clientClosed;
    },
    push: (...more) => void turns.push(...more),
    remaining: () => turns.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(
  res: ServerResponse,
  status: number,
  body: string | Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** Writes `data` whole, or in pieces of `size` bytes with `delayMs` between them; resolves once flushed. */
async function write(res: ServerResponse, data: Buffer, size?: number, delayMs = 0): Promise<void> {
  const step = size && size > 0 ? size : data.length || 1;
  for (let i = 0; i < data.length; i += step) {
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(data.subarray(i, i + step), () => resolve()));
    if (delayMs > 0 && i + step < data.length) await new Promise((r) => setTimeout(r, delayMs));
  }
}
