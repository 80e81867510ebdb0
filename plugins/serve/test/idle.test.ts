/**
 * `keel serve --idle-minutes`: a session nobody has open, that neither runs nor asks, is closed once idle that
 * long (it ends as it would on a DELETE and stays in the store, resumable); a session a client still has open is
 * kept, however long it sits. One server for the file, whose sessions go idle after 1.2 s.
 */
import { RpcClient } from "@keel/rpc-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startServe, type ServeProcess } from "./support/serve-process.ts";

let server: ServeProcess;
const clients: RpcClient[] = [];

beforeAll(async () => {
  server = await startServe({ script: [{ text: "one" }, { text: "two" }], args: ["--idle-minutes", "0.02"] });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  expect(await server.stop()).toBe(0);
});

async function connect(): Promise<RpcClient> {
  const client = await RpcClient.connect(server.address, { WebSocket: WebSocket as never });
  clients.push(client);
  return client;
}

async function listed(): Promise<{ live: { id: string }[]; stored: { id: string }[] }> {
  return (await fetch(`${server.origin}/api/sessions?token=${server.token}`)).json();
}

it("closes a session left idle with nobody on it, keeps it resumable, and keeps one a client has open", async () => {
  const watched = await connect();
  const left = await connect();
  await left.run("hello");
  const { sessionId } = await left.request({ type: "get_state" });
  await left.close();
  while ((await listed()).live.some((s) => s.id === left.session)) await new Promise((r) => setTimeout(r, 50));
  const after = await listed();
  expect(after.live.map((s) => s.id)).toContain(watched.session);
  expect(after.stored.map((s) => s.id)).toContain(sessionId);
  expect((await watched.request({ type: "get_state" })).sessionId).toEqual(expect.any(String));
});
