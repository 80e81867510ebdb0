/**
 * httpFetch, the driver's node:http client, against real servers on 127.0.0.1: it streams the body as it
 * arrives, keeps its connection when the reader stops early, inflates a compressed answer, and fails as fetch
 * does (a system error code, an AbortError).
 */
import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { afterEach, expect, it, vi } from "vitest";
import { httpFetch, idleConnections } from "../src/http-request.ts";

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((done) => {
      if (!server) return done();
      server.close(() => done());
      server.closeAllConnections();
    }),
);

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

const post = (url: string, signal = new AbortController().signal) =>
  httpFetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}', signal });

it("sends the body and streams the answer chunk by chunk, with its status and headers", async () => {
  let received = "";
  const url = await serve((req, res) => {
    req.on("data", (d) => (received += d));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream", "X-Thing": "1" });
      res.write("data: one\n\n");
      setTimeout(() => res.end("data: two\n\n"), 20);
    });
  });
  const response = await post(url);
  expect([response.ok, response.status, response.headers.get("x-thing"), response.headers.get("none")]).toEqual([
    true,
    200,
    "1",
    null,
  ]);
  const chunks: string[] = [];
  for await (const chunk of response.body!) chunks.push(Buffer.from(chunk).toString());
  expect(chunks).toEqual(["data: one\n\n", "data: two\n\n"]);
  expect(received).toBe('{"a":1}');
});

it("keeps the connection for the next request when the reader stops before the answer ends", async () => {
  let connections = 0;
  const url = await serve((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: final\n\n");
    setTimeout(() => res.end("data: [DONE]\n\n"), 20);
  });
  server!.on("connection", () => connections++);
  for (let i = 0; i < 3; i++) {
    const response = await post(url);
    for await (const _ of response.body!) break; // the driver stops at the final event
    await vi.waitFor(() => expect(idleConnections(new URL(url).host)).toBe(1));
  }
  expect(connections).toBe(1);
});

it("inflates a gzip answer, as an error page behind a proxy often is", async () => {
  const url = await serve((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "content-encoding": "gzip", "retry-after": "3" });
    res.end(gzipSync('{"error":{"message":"slow down"}}'));
  });
  const response = await post(url);
  expect([response.ok, response.status, response.headers.get("Retry-After")]).toEqual([false, 429, "3"]);
  expect(await response.text()).toBe('{"error":{"message":"slow down"}}');
});

it("rejects with the system error code when nothing listens", async () => {
  const url = await serve(() => {});
  await new Promise<void>((done) => server!.close(() => done()));
  server = undefined;
  await expect(post(url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
});

it("stops with an AbortError when the signal fires mid-stream", async () => {
  const url = await serve((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: one\n\n"); // and never ends
  });
  const abort = new AbortController();
  const response = await post(url, abort.signal);
  const read = (async () => {
    for await (const _ of response.body!) abort.abort();
  })();
  await expect(read).rejects.toMatchObject({ name: "AbortError" });
});
