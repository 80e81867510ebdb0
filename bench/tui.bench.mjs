// The terminal UI in a real pseudo-terminal (node-pty, drawn by a headless xterm.js): time from start to the
// first drawn screen against `node -e 0`; bytes written and time per 1,000 streamed tokens (the scripted
// model streams one token of ~4 characters per delta, as fast as it can); and keystroke-to-echo latency while
// tokens stream, against the same latency when idle. Each figure is a median over interleaved runs. Every wait
// for the screen has a deadline and fails saying what it waited for and what the screen showed, so the bench
// always ends (an earlier version waited forever on a screen that never came).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { median, ms, printTable, ratio, timeProcess } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WAIT_MS = 20_000;
const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const SCRIPTED = ["--provider", "scripted", "--settings", '{"provider-scripted":{"script":"turns.json"}}'];
const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
const roots = [];

function workspace(turns) {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-tui-"));
  roots.push(root);
  const cwd = join(root, "work");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(cwd, "turns.json"), JSON.stringify(turns));
  return { cwd, home };
}

/** The editor's text: the lines between its two rules, the last rules drawn. */
function editorText(screen) {
  const lines = screen.split("\n");
  const rules = lines.flatMap((line, i) => (/^─{20,}/.test(line) ? [i] : []));
  if (rules.length < 2) return undefined;
  const [top, bottom] = rules.slice(-2);
  return lines
    .slice(top + 1, bottom)
    .join("\n")
    .trim();
}

/**
 * keel's TUI on a pty. `until(test, what)` resolves the time the screen first satisfied `test`, checked only
 * between synchronized-output frames (as a terminal shows them); it rejects after WAIT_MS naming `what`.
 */
function open(env) {
  const term = new xterm.Terminal({ cols: 100, rows: 30, allowProposedApi: true, scrollback: 0 });
  const started = performance.now();
  const child = pty.spawn(process.execPath, [bin, ...SCRIPTED], {
    name: "xterm-256color",
    cols: 100,
    rows: 30,
    cwd: env.cwd,
    env: { ...process.env, KEEL_HOME: env.home, TERM: "xterm-256color" },
  });
  const session = { started, bytes: 0, child, waiters: new Set(), exited: false };
  let inFrame = false;
  let tail = "";
  const screen = () => {
    const b = term.buffer.active;
    const rows = [];
    for (let i = 0; i < term.rows; i++) rows.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? "");
    return rows.join("\n");
  };
  const check = () => {
    const text = screen();
    for (const waiter of session.waiters) waiter(text);
  };
  child.onData((data) => {
    session.bytes += Buffer.byteLength(data);
    const seen = tail + data;
    const opened = seen.lastIndexOf(SYNC_START);
    const closed = seen.lastIndexOf(SYNC_END);
    if (opened !== closed) inFrame = opened > closed;
    tail = seen.slice(-SYNC_START.length);
    const settled = !inFrame;
    term.write(data, () => settled && check());
  });
  child.onExit(() => {
    session.exited = true;
    check();
  });
  term.onData((reply) => child.write(reply));
  session.until = (test, what) =>
    new Promise((resolve, reject) => {
      const t = typeof test === "string" ? (s) => s.includes(test) : test;
      const waiter = (text) => {
        if (t(text)) {
          done();
          resolve(performance.now());
        } else if (session.exited) {
          done();
          reject(new Error(`keel exited before the screen showed ${what}; it shows:\n${text}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the screen did not show ${what} within ${WAIT_MS / 1000} s; it shows:\n${screen()}`));
      }, WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        session.waiters.delete(waiter);
      };
      session.waiters.add(waiter);
      waiter(screen());
    });
  session.close = () => {
    if (!session.exited) child.kill();
  };
  return session;
}

const READY = "context 0%";
const TOKENS = 1000;
const words = (n, stem) => Array.from({ length: n }, (_, i) => `${stem}${i % 100} `).join("");
const TEXT = words(TOKENS, "w");

async function firstScreen() {
  const s = open(workspace([{ text: "x" }]));
  try {
    return (await s.until(READY, "the footer (first screen)")) - s.started;
  } finally {
    s.close();
  }
}

async function stream() {
  const s = open(workspace([{ text: `${TEXT}END.`, chunkSize: 4 }]));
  try {
    await s.until(READY, "the footer (first screen)");
    const before = s.bytes;
    const sent = performance.now();
    s.child.write("go\r");
    const at = await s.until("END.", "the last streamed token");
    return { ms: at - sent, bytes: s.bytes - before };
  } finally {
    s.close();
  }
}

/** Median echo latency of 10 keystrokes: while a long reply streams (one token a millisecond), or idle. */
async function echo(busy) {
  const s = open(workspace([{ text: words(40 * TOKENS, "t"), chunkSize: 4, delayMs: 1 }]));
  try {
    await s.until(READY, "the footer (first screen)");
    if (busy) {
      s.child.write("go\r");
      await s.until("Working…", "the working indicator");
    }
    const samples = [];
    let typed = "";
    for (const ch of "abcdefghij") {
      typed += ch;
      const start = performance.now();
      s.child.write(ch);
      const want = typed;
      samples.push((await s.until((text) => editorText(text) === want, `"${want}" in the editor`)) - start);
    }
    // The reply must still be streaming, or the "busy" figure measured an idle UI.
    if (busy) await s.until("Working…", "the working indicator, still there after the keystrokes");
    return median(samples);
  } finally {
    s.close();
  }
}

try {
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
  printTable(`TUI: ${TOKENS} streamed tokens (${TEXT.length} characters)`, [
    ["measure", "median", "per 1,000 tokens", "vs the text's own size"],
    ["time to the last token drawn", ms(streamMs), ms((streamMs / TOKENS) * 1000), ""],
    [
      "bytes written to the terminal",
      String(streamBytes),
      String(Math.round((streamBytes / TOKENS) * 1000)),
      ratio(streamBytes, TEXT.length),
    ],
  ]);
  const idleMs = median(idle);
  const busyMs = median(busy);
  printTable("TUI: keystroke to echo", [
    ["case", "median", "vs idle"],
    ["idle", ms(idleMs), "1.00×"],
    ["while tokens stream", ms(busyMs), ratio(busyMs, idleMs)],
  ]);
  console.log(`\n(${RUNS} runs after one warm-up; medians)`);
} catch (error) {
  console.error(`tui bench failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
}
