#!/usr/bin/env node
/**
 * Session store benchmark: list 1,000 sessions, resume the latest of them, resume one session of 50,000
 * entries (about 100 MB), and the cost of one append. Goal: list and resume under 200 ms each, whatever the
 * total size of the other sessions. Data is generated once under bench/.work/sessions (gitignored) and reused.
 *
 *   node bench/sessions.bench.mjs [--fresh]
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url);
const src = (name) => jiti.import(fileURLToPath(new URL(`../plugins/session-jsonl/src/${name}.ts`, import.meta.url)));
const { SessionRecorder } = await src("recorder");
const { listSessions, latestSession } = await src("meta");
const { loadSession } = await src("load");
const { metaPathOf } = await src("paths");

const WORK = fileURLToPath(new URL("./.work/sessions", import.meta.url));
const MANY = join(WORK, "many");
const BIG = join(WORK, "big");
const DATA_VERSION = "1";
const SESSIONS = 1_000;
const BIG_ENTRIES = 50_000;
const GOAL_MS = 200;

const quiet = { cwd: "/bench/project", lock: { staleMs: 10_000 }, warn: (m) => console.error(`warning: ${m}`) };
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const text = (n, seed) => `${seed} `.padEnd(n, "lorem ipsum dolor sit amet ");
const user = (t) => ({ role: "user", content: t, timestamp: Date.now() });
const assistant = (t) => ({ role: "assistant", content: [{ type: "text", text: t }], stopReason: "stop", usage, provider: "bench", model: "m", timestamp: Date.now() });
const result = (t) => ({ role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: t }], isError: false, timestamp: Date.now() });

function ms(t0) {
  return performance.now() - t0;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(ms(t0));
  }
  return { median: median(samples), max: Math.max(...samples) };
}

/** 1,000 sessions of 20-60 entries of about 1-3 KB each (about 100 MB in all). */
function generateMany() {
  for (let s = 0; s < SESSIONS; s++) {
    const r = SessionRecorder.start(MANY, `many-${String(s).padStart(4, "0")}`, quiet);
    const turns = 5 + (s % 11);
    for (let t = 0; t < turns; t++) {
      r.recordMessage(user(text(200 + (t % 5) * 100, `session ${s} turn ${t}`)));
      r.recordMessage(assistant(text(1_500 + (s % 7) * 200, `answer ${t}`)));
      r.recordMessage(result(text(2_500, `result ${t}`)));
      r.recordMessage(assistant(text(600, `done ${t}`)));
    }
    r.close();
  }
}

/** One session of 50,000 entries of about 2 KB, compacted every 400 entries keeping the last 40. */
function generateBig() {
  const r = SessionRecorder.start(BIG, "big", quiet);
  let history = [];
  for (let i = 0; i < BIG_ENTRIES; i++) {
    if (i > 0 && i % 400 === 0) {
      const cut = history.findIndex((m, k) => k >= history.length - 40 && m.role === "user");
      const summary = { role: "user", kind: "compaction_summary", content: text(3_000, `summary ${i}`), timestamp: Date.now() };
      history = [summary, ...history.slice(cut)];
      r.recordCompaction({ reason: "threshold", tokensBefore: 150_000, tokensAfter: 20_000, summary: summary.content, firstKeptIndex: cut }, history);
      continue;
    }
    const k = i % 4;
    const m = k === 0 ? user(text(400, `prompt ${i}`)) : k === 1 ? assistant(text(1_800, `step ${i}`)) : k === 2 ? result(text(3_200, `output ${i}`)) : assistant(text(1_000, `answer ${i}`));
    history.push(m);
    r.recordMessage(m);
  }
  r.close();
  return r.path;
}

function dataReady() {
  return existsSync(join(WORK, "version")) && readdirSync(MANY).filter((f) => f.endsWith(".jsonl")).length === SESSIONS && readdirSync(BIG).some((f) => f.endsWith(".jsonl"));
}

function dirBytes(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

const started = performance.now();
if (process.argv.includes("--fresh") || !existsSync(WORK) || !dataReady()) {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  let t0 = performance.now();
  generateMany();
  console.log(`generated ${SESSIONS} sessions (${(dirBytes(MANY) / 1e6).toFixed(0)} MB) in ${(ms(t0) / 1000).toFixed(1)} s`);
  t0 = performance.now();
  generateBig();
  console.log(`generated one session of ${BIG_ENTRIES} entries (${(dirBytes(BIG) / 1e6).toFixed(0)} MB) in ${(ms(t0) / 1000).toFixed(1)} s`);
  writeFileSync(join(WORK, "version"), DATA_VERSION);
}
const bigPath = join(BIG, readdirSync(BIG).find((f) => f.endsWith(".jsonl")));

const rows = [];
const row = (name, value, goal) => rows.push({ name, value, goal });

// Listing: with the index in place, then with every index entry removed (rebuilt from the files).
const list = time(5, () => {
  if (listSessions(MANY).length !== SESSIONS) throw new Error("listing lost sessions");
});
row(`list ${SESSIONS} sessions (${(dirBytes(MANY) / 1e6).toFixed(0)} MB)`, list, GOAL_MS);
for (const f of readdirSync(MANY)) if (f.endsWith(".jsonl")) rmSync(metaPathOf(join(MANY, f)), { force: true });
row(`list ${SESSIONS} sessions, index missing (rebuilt)`, time(1, () => listSessions(MANY)));

// Resume: find the latest session, read its branch, take the lock, release it.
const resumeLatest = time(5, () => {
  const { recorder, context } = SessionRecorder.resume(latestSession(MANY), quiet);
  if (context.messages.length === 0) throw new Error("resumed nothing");
  recorder.close();
});
row(`resume the latest of ${SESSIONS} sessions`, resumeLatest, GOAL_MS);

const bigSize = statSync(bigPath).size;
let bigMessages = 0;
const resumeBig = time(5, () => {
  const { recorder, context } = SessionRecorder.resume(bigPath, quiet);
  bigMessages = context.messages.length;
  recorder.close();
});
row(`resume one session of ${BIG_ENTRIES} entries (${(bigSize / 1e6).toFixed(0)} MB; ${bigMessages} messages in context)`, resumeBig, GOAL_MS);
row(`parse that whole session (/tree, /export)`, time(1, () => loadSession(bigPath)));

// Appends: 2 KB message entries on a fresh session, without and with fdatasync.
function appendCost(count, fsync) {
  const dir = join(WORK, `append-${fsync ? "fsync" : "plain"}`);
  rmSync(dir, { recursive: true, force: true });
  const r = SessionRecorder.start(dir, "append", { ...quiet, fsync });
  r.recordMessage(user("start"));
  r.recordMessage(assistant("ok"));
  const m = assistant(text(2_000, "entry"));
  const t0 = performance.now();
  for (let i = 0; i < count; i++) r.recordMessage(m);
  const each = ms(t0) / count;
  r.close();
  rmSync(dir, { recursive: true, force: true });
  return each;
}
const plain = appendCost(20_000, false);
const synced = appendCost(300, true);

console.log("");
console.log("| measurement | median ms | max ms | goal |");
console.log("|---|---:|---:|---|");
for (const r of rows) {
  const verdict = r.goal === undefined ? "" : r.value.median < r.goal ? `< ${r.goal} ms ✓` : `< ${r.goal} ms ✗`;
  console.log(`| ${r.name} | ${r.value.median.toFixed(1)} | ${r.value.max.toFixed(1)} | ${verdict} |`);
}
console.log(`| append one 2 KB entry | ${(plain * 1000).toFixed(1)} µs | | |`);
console.log(`| append one 2 KB entry with fsync | ${(synced * 1000).toFixed(1)} µs | | |`);
console.log(`\ntotal ${(ms(started) / 1000).toFixed(1)} s`);
const failed = rows.filter((r) => r.goal !== undefined && r.value.median >= r.goal);
process.exitCode = failed.length ? 1 : 0;
