// RPC round trip of get_state: one `keel --mode rpc` process answering get_state requests one after another,
// against a Node process that echoes each line back (the same pipes and JSON, no keel), interleaved in the same
// run, medians reported.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { interleaved, median, printTable, ratio } from "./lib.mjs";

const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const REQUESTS = Number(process.env.RPC_BENCH_REQUESTS ?? 200);
const ROUNDS = 5;
const ECHO =
  `let b="";process.stdin.on("data",(d)=>{b+=d;let ` +
  `i;while((i=b.indexOf("\\n"))>=0){const l=b.slice(0,i);b=b.slice(i+1);const ` +
  `r=JSON.parse(l);process.stdout.write(JSON.stringify({type:"response",id:r.id,command:r.type,success:true,` +
  `data:{}})+"\\n")}})`;

/** A child answering JSON lines; `ask()` sends one request and resolves on the response with its id. */
function peer(command, args, env) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], env });
  const waiting = new Map();
  let buffer = "";
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      if (message.type === "response") waiting.get(message.id)?.(message);
    }
  });
  let next = 0;
  return {
    ask(type) {
      const id = String(next++);
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, type })}\n`);
      });
    },
    close: () => child.stdin.end(),
  };
}

const home = mkdtempSync(join(tmpdir(), "keel-rpc-bench-"));
const keel = peer(process.execPath, [bin, "--no-session", "--mode", "rpc"], { ...process.env, KEEL_HOME: home });
const echo = peer(process.execPath, ["-e", ECHO], process.env);
await keel.ask("get_state");

const perRequest = (p) => async () => {
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) await p.ask("get_state");
  return (performance.now() - start) / REQUESTS;
};
const [echoTimes, keelTimes] = await interleaved(
  [
    ["echo", perRequest(echo)],
    ["keel", perRequest(keel)],
  ],
  1,
  ROUNDS,
);
keel.close();
echo.close();
const base = median(echoTimes);
printTable(`RPC round trip (${REQUESTS} requests a round, median of ${ROUNDS})`, [
  ["round trip", "per request", "vs echo"],
  ["a Node process echoing each line (reference)", `${base.toFixed(3)} ms`, "1.00×"],
  ["keel --mode rpc get_state", `${median(keelTimes).toFixed(3)} ms`, ratio(median(keelTimes), base)],
]);
