// The terminal UI in a real pseudo-terminal (node-pty, drawn by a headless xterm.js): time from start to the
// first drawn screen against `node -e 0`; bytes written and time per 1,000 streamed tokens (the scripted
// model streams one token per delta, as fast as it can); and keystroke-to-echo latency while tokens stream,
// against the same latency when idle. Each figure is a median over interleaved runs in the same process.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { median, ms, printTable, ratio, timeProcess } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const bin = fileURLToPath(new URL("../bin/keel.js", import.meta.url));

function workspace(turns) {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-tui-"));
  const cwd = join(root, "work");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(cwd, "turns.json"), JSON.stringify(turns));
  return { cwd, home };
}

/** keel's TUI on a pty; `until(text)` resolves when the screen shows it (checked after each write). */
function open(env) {
  const term = new xterm.Terminal({ cols: 100, rows: 30, allowProposedApi: true, scrollback: 0 });
  const started = performance.now();
  const child = pty.spawn(
    process.execPath,
    [bin, "--provider", "scripted", "--settings", '{"provider-scripted":{"script":"turns.json"}}'],
    { name: "xterm-256color", cols: 100, rows: 30, cwd: env.cwd, env: { ...process.env, KEEL_HOME: env.home } },
  );
  const session = { started, bytes: 0, term, child, waiters: [] };
  const screen = () => {
    const b = term.buffer.active;
    let text = "";
    for (let i = 0; i < b.length; i++) text += (b.getLine(i)?.translateToString(true) ?? "") + "\n";
    return text;
  };
  child.onData((data) => {
    session.bytes += Buffer.byteLength(data);
    term.write(data, () => {
      const text = screen();
      session.waiters = session.waiters.filter(
        ([test, resolve]) => !(test(text) && (resolve(performance.now()), true)),
      );
    });
  });
  term.onData((reply) => child.write(reply));
  session.until = (test) =>
    new Promise((resolve) => {
      const t = typeof test === "string" ? (s) => s.includes(test) : test;
      if (t(screen())) resolve(performance.now());
      else session.waiters.push([t, resolve]);
    });
  session.close = () => child.kill();
  return session;
}

const TOKENS = 1000;
const words = Array.from({ length: TOKENS }, (_, i) => `w${i % 100} `).join("");

async function firstScreen() {
  const s = open(workspace([{ text: "x" }]));
  const at = await s.until("context 0%");
  s.close();
  return at - s.started;
}

async function stream() {
  const s = open(workspace([{ text: `${words}END.`, chunkSize: 4 }]));
  await s.until("context 0%");
  const before = s.bytes;
  const sent = performance.now();
  s.child.write("go\r");
  const at = await s.until("END.");
  const result = { ms: at - sent, bytes: s.bytes - before };
  s.close();
  return result;
}

/** Median echo latency of 10 keystrokes: while a long reply streams, or with nothing going on. */
async function echo(busy) {
  const long = Array.from({ length: 40 * TOKENS }, (_, i) => `t${i % 50} `).join("");
  const s = open(workspace([{ text: long, chunkSize: 4 }]));
  await s.until("context 0%");
  if (busy) {
    s.child.write("go\r");
    await s.until("Working…");
  }
  const samples = [];
  let typed = "";
  for (let i = 0; i < 10; i++) {
    const ch = "abcdefghij"[i];
    typed += ch;
    const start = performance.now();
    s.child.write(ch);
    const pattern = new RegExp(`^${typed}\\s*$`, "m");
    samples.push((await s.until((text) => pattern.test(text))) - start);
  }
  s.close();
  return median(samples);
}

const node = [];
const first = [];
const streamed = [];
const idle = [];
const busy = [];
for (let i = 0; i < RUNS + 1; i++) {
  const n = await timeProcess(process.execPath, ["-e", "0"]);
  const f = await firstScreen();
  const s = await stream();
  const e0 = await echo(false);
  const e1 = await echo(true);
  if (i === 0) continue; // warm-up: caches (jiti, V8 code cache) are written on the first run
  node.push(n);
  first.push(f);
  streamed.push(s);
  idle.push(e0);
  busy.push(e1);
}

const base = median(node);
const firstMs = median(first);
printTable("TUI: start to first drawn screen", [
  ["case", "median", "vs node -e 0"],
  ["node -e 0", ms(base), "1.00×"],
  ["keel (tui) first screen", ms(firstMs), ratio(firstMs, base)],
]);
const streamMs = median(streamed.map((s) => s.ms));
const streamBytes = median(streamed.map((s) => s.bytes));
printTable(`TUI: ${TOKENS} streamed tokens (${words.length} characters)`, [
  ["measure", "median", "per 1,000 tokens", "vs the text's own size"],
  ["time to the last token drawn", ms(streamMs), ms((streamMs / TOKENS) * 1000), ""],
  [
    "bytes written to the terminal",
    String(streamBytes),
    String(Math.round((streamBytes / TOKENS) * 1000)),
    ratio(streamBytes, words.length),
  ],
]);
const idleMs = median(idle);
const busyMs = median(busy);
printTable("TUI: keystroke to echo", [
  ["case", "median", "vs idle"],
  ["idle", ms(idleMs), "1.00×"],
  ["while tokens stream", ms(busyMs), ratio(busyMs, idleMs)],
]);
