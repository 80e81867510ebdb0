/**
 * `keel serve` through the real binary, one server for the file, driven by `@keel/rpc-client` as another
 * program would: several clients on one session see the same numbered stream and any of them answers a
 * question; a client whose connection drops mid-run gets exactly what it missed; requests without the token,
 * from another site or naming another host are refused.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { RpcClient, type RpcEvent } from "@keel/rpc-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { until } from "../../../test/support/until.ts";
import { startServe, type ServeProcess } from "./support/serve-process.ts";
import { relay, type Relay } from "./support/tcp-cut.ts";

// Every session plays it from the start: a command that needs approval, then a reply slow enough to cut into.
const SCRIPT = [
  { thinking: "I will make the file.", toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] },
  { text: "Made it: made.txt is there now, empty as asked.", chunkSize: 2, delayMs: 5 },
];

let server: ServeProcess;
let cut: Relay;
const clients: RpcClient[] = [];

beforeAll(async () => {
  let target: URL | undefined;
  cut = await relay(() => target!);
  server = await startServe({ script: SCRIPT, args: ["--allow-host", new URL(cut.origin).host] });
  target = new URL(server.origin);
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await cut.close();
  expect(await server.stop()).toBe(0);
});

async function connect(options: { session?: string; via?: string } = {}): Promise<RpcClient> {
  const address = options.via ? `${options.via}/?token=${server.token}` : server.address;
  const client = await RpcClient.connect(address, { session: options.session, WebSocket: WebSocket as never });
  clients.push(client);
  return client;
}

function record(client: RpcClient): RpcEvent[] {
  const events: RpcEvent[] = [];
  client.onEvent((event) => events.push(event));
  return events;
}

const allow = () => ({ value: "Allow once" });
const seqs = (events: RpcEvent[]) => events.map((e) => e.seq);

describe("keel serve", () => {
  it("sends every event of a session to each of its clients, numbered, and lets any of them answer", async () => {
    const first = await connect();
    const second = await connect({ session: first.session });
    second.onUiRequest(allow);
    const seen = [record(first), record(second)];
    await first.run("make the file");
    await until(() => seen[1]!.at(-1)?.type === "agent_end");
    expect(seen[0]!.length).toBeGreaterThan(10);
    expect(seen[1]).toEqual(seen[0]);
    const numbers = seqs(seen[0]!) as number[];
    expect(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)).toBe(true);
    const types = seen[0]!.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["tool_execution_start", "tool_execution_end", "agent_end"]));
    expect(existsSync(join(server.env.cwd, "made.txt"))).toBe(true);
  });

  it("tells every client a question is closed once one of them answered it", async () => {
    const answering = await connect();
    answering.onUiRequest(allow);
    const watcher = new WebSocket(
      `${server.origin.replace("http", "ws")}/api/sessions/${answering.session}/socket?token=${server.token}`,
    );
    const messages: { type: string; id?: string; seq?: number }[] = [];
    watcher.on("message", (data) => messages.push(JSON.parse(String(data))));
    await until(() => messages.some((m) => m.type === "welcome"));
    await answering.run("make the file");
    const asked = messages.find((m) => m.type === "extension_ui_request");
    expect(asked).toBeDefined();
    expect(messages).toContainEqual(expect.objectContaining({ type: "extension_ui_closed", id: asked!.id }));
    // Events and questions share one numbering, with no gap.
    const numbers = messages.slice(1).map((m) => m.seq!);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    watcher.close();
  });

  it("gives a client that comes later the questions still open, and takes its answer", async () => {
    const asker = await connect();
    const questions: string[] = [];
    let welcomed = false;
    const watcher = new WebSocket(
      `${server.origin.replace("http", "ws")}/api/sessions/${asker.session}/socket?token=${server.token}`,
    );
    watcher.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string };
      welcomed ||= message.type === "welcome";
      if (message.type === "extension_ui_request") questions.push(message.id!);
    });
    await until(() => welcomed);
    const end = asker.waitForEvent("agent_end");
    await asker.request({ type: "prompt", message: "make the file" });
    await until(() => questions.length === 1);
    const late = await connect({ session: asker.session });
    const answered: string[] = [];
    late.onUiRequest((question) => (answered.push(question.id), allow()));
    await end;
    expect(answered).toEqual(questions);
    watcher.close();
  });

  it("resumes a client whose connection dropped mid-run with exactly the events it missed", async () => {
    const steady = await connect();
    steady.onUiRequest(allow);
    const dropped = await connect({ session: steady.session, via: cut.origin });
    const welcomes: boolean[] = [];
    dropped.onConnection((welcome) => welcomes.push(welcome.resumed));
    const [all, received] = [record(steady), record(dropped)];
    const end = steady.waitForEvent("agent_end");
    await steady.request({ type: "prompt", message: "make the file" });
    await until(() => received.filter((e) => e.type === "message_update").length >= 20);
    cut.cut();
    await end;
    await until(() => received.at(-1)?.type === "agent_end");
    expect(welcomes).toEqual([true]);
    expect(seqs(received)).toEqual(seqs(all));
    expect(received).toEqual(all);
  });

  it("ends the session and lets its clients go for good when it is closed", async () => {
    const client = await connect();
    client.onUiRequest(allow);
    await client.run("make the file");
    const ended = client.waitForEvent("session_end");
    const closed = await fetch(`${server.origin}/api/sessions/${client.session}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(closed.status).toBe(200);
    expect((await ended).reason).toBe("exit");
    const asked = () =>
      client.request({ type: "get_state" }).then(
        () => "answered",
        (e: Error) => e.message,
      );
    await expect.poll(asked).toMatch(/closed \(4404\)/);
    const { live } = await (await fetch(`${server.origin}/api/sessions?token=${server.token}`)).json();
    expect(live.map((s: { id: string }) => s.id)).not.toContain(client.session);
  });

  it("lists stored sessions and resumes one, reusing the session that holds it", async () => {
    const first = await connect();
    first.onUiRequest(allow);
    await first.run("make the file");
    const { sessionId } = await first.request({ type: "get_state" });
    const { messages } = await first.request({ type: "get_messages" });
    const resume = () => api("/api/sessions", { method: "POST", body: JSON.stringify({ resume: sessionId }) });
    expect((await resume()).id).toBe(first.session);
    expect((await api(`/api/sessions/${first.session}`, { method: "DELETE" })).error).toBeUndefined();
    const listed = (await api("/api/sessions")) as { stored: { id: string; firstPrompt?: string }[] };
    expect(listed.stored).toContainEqual(expect.objectContaining({ id: sessionId, firstPrompt: "make the file" }));
    const reopened = await resume();
    expect(reopened.id).not.toBe(first.session);
    const again = await connect({ session: reopened.id });
    expect((await again.request({ type: "get_messages" })).messages).toEqual(messages);
  });

  it("answers bad input with an error that says what was wrong, and goes on serving", async () => {
    const post = (path: string, body: string) => api(path, { method: "POST", body });
    expect((await post("/api/sessions", "not json")).error).toBe("the body must be a JSON object");
    expect((await post("/api/sessions", JSON.stringify({ resume: "no-such-session" }))).error).toMatch(
      /no-such-session/,
    );
    expect((await post("/api/market/install", JSON.stringify({ name: "--yes" }))).error).toBe(
      '"--yes" is not a plugin name',
    );
    expect((await post("/api/market/install", "{}")).error).toBe('"name" is missing');
    expect((await api("/api/sessions/nope", { method: "DELETE" })).error).toBe("no such session");
    await expect(socketStatus(`/api/sessions/nope/socket?token=${server.token}`, {})).resolves.toBe(404);
    const client = await connect();
    client.sendLine("{ not json");
    expect(await client.nextOrphan()).toMatchObject({ command: "parse", success: false });
    expect((await client.request({ type: "get_state" })).isRunning).toBe(false);
  });

  it("refuses requests without the token or with a wrong one", async () => {
    const sessions = `${server.origin}/api/sessions`;
    expect((await fetch(sessions)).status).toBe(401);
    expect((await fetch(sessions, { headers: { authorization: "Bearer not-the-token" } })).status).toBe(401);
    expect((await fetch(`${sessions}?token=${server.token}x`)).status).toBe(401);
    expect((await fetch(sessions, { headers: { authorization: `Bearer ${server.token}` } })).status).toBe(200);
    await expect(socketStatus(`/api/sessions/nope/socket`, {})).resolves.toBe(401);
  });

  it("refuses another site's Origin and a Host that is not the server's, token or not", async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    const foreign = await fetch(`${server.origin}/api/sessions`, { headers: { ...auth, origin: "http://evil.test" } });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toContain("http://evil.test");
    const own = await fetch(`${server.origin}/api/sessions`, { headers: { ...auth, origin: server.origin } });
    expect(own.status).toBe(200);
    const { live } = (await own.json()) as { live: { id: string }[] };
    const path = `/api/sessions/${live[0]!.id}/socket?token=${server.token}`;
    await expect(socketStatus(path, { origin: "http://evil.test" })).resolves.toBe(403);
    await expect(socketStatus(path, { host: "evil.test" })).resolves.toBe(403);
    await expect(socketStatus(path, { origin: server.origin })).resolves.toBe(101);
  });

  it("moves the token of the printed address into a cookie the page's own requests carry", async () => {
    const first = await fetch(server.address, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/");
    const cookie = first.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const list = await fetch(`${server.origin}/api/sessions`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(list.status).toBe(200);
  });
});

/** The server's JSON API with the token. */
async function api(path: string, init: RequestInit = {}): Promise<{ id?: string; error?: string }> {
  const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  return (await fetch(`${server.origin}${path}`, { ...init, headers })).json();
}

/** The HTTP status a WebSocket handshake to `path` gets (101 when it is let in). */
function socketStatus(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${server.origin.replace("http", "ws")}${path}`, { headers });
    socket.on("open", () => (socket.close(), resolve(101)));
    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    socket.on("error", () => undefined);
  });
}
