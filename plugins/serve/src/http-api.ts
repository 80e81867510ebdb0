/**
 * The HTTP side: the page and its assets, the session list, opening and closing sessions, and the marketplace,
 * each behind the guard. The first load carries the token in the address; it is moved into a cookie and the
 * address loses it (a redirect), so it stays out of the history and of anything the page links to.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Guard } from "./guard.ts";
import type { Market } from "./market.ts";
import type { Sessions } from "./sessions.ts";
import type { StaticFiles } from "./static-files.ts";

const MAX_BODY_BYTES = 64 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Parts {
  guard: Guard;
  sessions: Sessions;
  market: Market;
  files: StaticFiles;
}

type Route = (request: IncomingMessage, url: URL, match: RegExpExecArray) => Promise<unknown>;

export function httpHandler(parts: Parts) {
  const { guard, sessions, market, files } = parts;
  const routes: [string, RegExp, Route][] = [
    ["GET", /^\/api\/sessions$/, async () => ({ live: sessions.live(), stored: await sessions.stored() })],
    [
      "POST",
      /^\/api\/sessions$/,
      async (request) => {
        const body = (await readJson(request)) as { resume?: unknown };
        return { id: (await sessions.open(typeof body.resume === "string" ? body.resume : undefined)).id };
      },
    ],
    [
      "DELETE",
      /^\/api\/sessions\/([\w-]+)$/,
      async (_request, _url, match) => {
        if (!(await sessions.close(match[1]!))) throw new HttpError(404, "no such session");
        return {};
      },
    ],
    ["GET", /^\/api\/market\/search$/, (_r, url) => market.search(url.searchParams.get("q") ?? "")],
    ["GET", /^\/api\/market\/info$/, (_r, url) => market.info(url.searchParams.get("name") ?? "")],
    ["GET", /^\/api\/market\/installed$/, () => market.installed()],
    ["POST", /^\/api\/market\/install$/, async (request) => market.install(field(await readJson(request), "name"))],
    [
      "POST",
      /^\/api\/market\/answer$/,
      async (request) => {
        const body = (await readJson(request)) as { yes?: unknown };
        return market.answer(field(body, "job"), body.yes === true);
      },
    ],
    ["POST", /^\/api\/market\/remove$/, async (request) => market.remove(field(await readJson(request), "name"))],
  ];

  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const refusal = guard.check(request);
    if (refusal) return sendJson(response, refusal.status, { error: refusal.message });
    const url = new URL(request.url ?? "/", "http://x");
    if (request.method === "GET" && url.pathname === "/" && url.searchParams.has("token")) {
      response.writeHead(303, { location: "/", "set-cookie": guard.setCookie(), "cache-control": "no-store" });
      return void response.end();
    }
    for (const [method, pattern, route] of routes) {
      const match = pattern.exec(url.pathname);
      if (!match) continue;
      if (request.method !== method) continue;
      try {
        return sendJson(response, 200, await route(request, url, match));
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 400;
        return sendJson(response, status, { error: (error as Error).message });
      }
    }
    if (request.method === "GET" && files.send(url.pathname, request.headers["accept-encoding"], response)) return;
    if (request.method === "GET" && url.pathname === "/")
      return sendJson(response, 500, { error: "the web UI is not built: run npm run build in keel's folder" });
    sendJson(response, 404, { error: `nothing at ${request.method} ${url.pathname}` });
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "the request is too large");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    const value: unknown = text === "" ? {} : JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below, like any body that is not an object.
  }
  throw new HttpError(400, "the body must be a JSON object");
}

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value === "") throw new HttpError(400, `"${name}" is missing`);
  return value;
}
