// keel serve: events per second delivered to 10 clients of one session, and the server's memory per idle
// session. The scripted model streams a long reply (one event per 8 characters) while 10 WebSocket clients each
// receive every event; references in the same run: the same reply to one client of `keel --mode rpc` over
// stdio, and the same messages broadcast to 10 clients by a bare `ws` server (no keel). Memory: the server's
// RSS after opening 20 more idle sessions, per session, against the RSS of one idle `keel --mode rpc` process
// (a session in a process of its own).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";
import { interleaved, median, printTable, ratio } from "./lib.mjs";

const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const BARE_SERVER = `
const { WebSocketServer } = require("ws");
const messages = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const server = new WebSocketServer({ port: 0, host: "127.0.0.1" }, () =>
  process.stdout.write(String(server.address().port)));
server.on("connection", (socket) => {
  socket.send("{}");
  socket.on("message", () => { for (const text of messages) for (const client of server.clients) client.send(text); });
});`;
const CLIENTS = 10;
const ROUNDS = Number(process.env.SERVE_BENCH_ROUNDS ?? 5);
const IDLE_SESSIONS = 20;
const REPLY = "the quick brown fox jumps over the lazy dog. ".repeat(600);
const turns = Array.from({ length: ROUNDS + 2 }, () => ({ text: REPLY, chunkSize: 8 }));

function workspace() {
  const root = mkdtempSync(join(tmpdir(), "keel-serve-bench-"));
  writeFileSync(join(root, "turns.json"), JSON.stringify(turns));
  return root;
}
const SCRIPTED = ["--provider", "scripted", "--settings", '{"provider-scripted":{"script":"turns.json"}}'];
const env = (root) => ({ ...process.env, KEEL_HOME: join(root, ".home") });

/** `keel serve` started; resolves its address, token and process. */
async function startServe() {
  const root = workspace();
  const child = spawn(process.execPath, [bin, "serve", ...SCRIPTED], { cwd: root, env: env(root) });
  child.stderr.pipe(process.stderr);
  const address = await new Promise((resolve) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const found = /open (\S+)\n/.exec(out);
      if (found) resolve(new URL(found[1]));
    });
  });
  return { child, origin: address.origin, token: address.searchParams.get("token") };
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;

/** `count` clients on one socket URL; `round()` resolves once each has received agent_end, with the total. */
async function clientsOf(url, count) {
  const clients = await Promise.all(
    Array.from({ length: count }, () => {
      const socket = new WebSocket(url);
      return new Promise((resolve) => socket.once("message", () => resolve(socket)));
    }),
  );
  return {
    sockets: clients,
    round(start) {
      let received = 0;
      const done = clients.map(
        (socket) =>
          /** @type {Promise<void>} */ (
            new Promise((resolve) => {
              const on = (data) => {
                received++;
                if (String(data).includes('"type":"agent_end"')) {
                  socket.off("message", on);
                  resolve();
                }
              };
              socket.on("message", on);
            })
          ),
      );
      const began = performance.now();
      start();
      return Promise.all(done).then(() => ({ received, ms: performance.now() - began }));
    },
  };
}

// keel serve, 10 clients of one session.
const server = await startServe();
const auth = { authorization: `Bearer ${server.token}` };
const { live } = await (await fetch(`${server.origin}/api/sessions`, { headers: auth })).json();
const socketUrl = `${server.origin.replace("http", "ws")}/api/sessions/${live[0].id}/socket?token=${server.token}`;
const served = await clientsOf(socketUrl, CLIENTS);
const serveRound = async () => {
  const { received, ms } = await served.round(() =>
    served.sockets[0].send(JSON.stringify({ type: "prompt", message: "go" })),
  );
  return received / (ms / 1000);
};
/** @type {string[]} */
const sample = [];
const keep = (/** @type {unknown} */ data) => sample.push(String(data));
served.sockets[0].on("message", keep);
await serveRound();
served.sockets[0].off("message", keep);
const messages = sample.filter((text) => !text.includes('"type":"response"'));

// keel --mode rpc, one client over stdio.
const rpcRoot = workspace();
const rpc = spawn(process.execPath, [bin, ...SCRIPTED, "--mode", "rpc"], { cwd: rpcRoot, env: env(rpcRoot) });
const rpcRound = () =>
  new Promise((resolve) => {
    let received = 0;
    let buffer = "";
    const began = performance.now();
    const on = (chunk) => {
      buffer += chunk;
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        if (!line.includes('"type":"response"')) received++;
        if (line.includes('"type":"agent_end"')) {
          rpc.stdout.off("data", on);
          resolve(received / ((performance.now() - began) / 1000));
        }
      }
    };
    rpc.stdout.on("data", on);
    rpc.stdin.write(`${JSON.stringify({ type: "prompt", message: "go" })}\n`);
  });
await rpcRound();

// A bare ws server, in a process of its own as keel's is, broadcasting the same messages to 10 clients.
const sampleFile = join(workspace(), "messages.json");
writeFileSync(sampleFile, JSON.stringify(messages));
const bare = spawn(process.execPath, ["-e", BARE_SERVER, sampleFile], {
  cwd: fileURLToPath(new URL("..", import.meta.url)),
});
const barePort = await new Promise((resolve) => bare.stdout.once("data", (d) => resolve(Number(String(d)))));
const broadcast = await clientsOf(`ws://127.0.0.1:${barePort}/`, CLIENTS);
const bareRound = async () => {
  const { received, ms } = await broadcast.round(() => broadcast.sockets[0].send("go"));
  return received / (ms / 1000);
};

const [serveRates, rpcRates, bareRates] = await interleaved(
  [
    ["serve", serveRound],
    ["rpc", rpcRound],
    ["bare", bareRound],
  ],
  0,
  ROUNDS,
);
const rate = (v) => `${Math.round(v).toLocaleString("en")} events/s`;
const bareRate = median(bareRates);
printTable(`Events delivered (a reply of ${messages.length} events, median of ${ROUNDS} rounds)`, [
  ["how", "delivered", "vs bare ws"],
  [`bare ws server, same messages to ${CLIENTS} clients (reference)`, rate(bareRate), "1.00×"],
  [`keel serve, ${CLIENTS} clients of one session`, rate(median(serveRates)), ratio(median(serveRates), bareRate)],
  ["keel --mode rpc, 1 client over stdio", rate(median(rpcRates)), ratio(median(rpcRates), bareRate)],
]);
for (const socket of [...served.sockets, ...broadcast.sockets]) socket.close();
bare.kill();
rpc.stdin.end();

// Memory: a fresh server, then 20 more idle sessions.
const fresh = await startServe();
const base = rssOf(fresh.child.pid);
for (let i = 0; i < IDLE_SESSIONS; i++)
  await fetch(`${fresh.origin}/api/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${fresh.token}`, "content-type": "application/json" },
    body: "{}",
  });
const settled = async () => {
  let last = 0;
  for (let i = 0; i < 5; i++) {
    last = rssOf(fresh.child.pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last;
};
const perSession = ((await settled()) - base) / IDLE_SESSIONS;
const idleRoot = workspace();
const idle = spawn(process.execPath, [bin, ...SCRIPTED, "--mode", "rpc"], { cwd: idleRoot, env: env(idleRoot) });
idle.stdin.write(`${JSON.stringify({ type: "get_state" })}\n`);
await new Promise((resolve) => idle.stdout.once("data", resolve));
const rpcIdle = rssOf(idle.pid);
idle.stdin.end();
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
printTable(`Memory (RSS) per idle session, ${IDLE_SESSIONS} sessions opened`, [
  ["what", "RSS", "vs a process of its own"],
  ["keel --mode rpc, idle (a session in its own process; reference)", mb(rpcIdle), "1.00×"],
  ["keel serve with its first session", mb(base), ratio(base, rpcIdle)],
  ["keel serve, each further idle session", mb(perSession), ratio(perSession, rpcIdle)],
]);
for (const s of [server, fresh]) s.child.kill("SIGTERM");
