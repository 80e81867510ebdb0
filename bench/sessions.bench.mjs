#!/usr/bin/env node
/**
 * Session store benchmark: list 1,000 sessions, resume the latest of them, resume one session of 50,000
 * entries (about 100 MB), and the cost of one append. Goal: list and resume under 200 ms each, whatever the
 * total size of the other sessions. Data is generated once under bench/.work/sessions (gitignored) and reused.
 *
 *   node bench/sessions.bench.mjs [--fresh]
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";
import { median, ms as fmt, printTable, ratio } from "./lib.mjs";

const jiti = createJiti(import.meta.url);
/** @param {string} name @returns {Promise<any>} typed where each module is taken apart below */
const src = (name) => jiti.import(fileURLToPath(new URL(`../plugins/session-jsonl/src/${name}.ts`, import.meta.url)));
/** @type {typeof import("../plugins/session-jsonl/src/recorder.ts")} */
const { SessionRecorder } = await src("recorder");
/** @type {typeof import("../plugins/session-jsonl/src/meta.ts")} */
const { listSessions, latestSession } = await src("meta");
/** @type {typeof import("../plugins/session-jsonl/src/load.ts")} */
const { loadSession } = await src("load");
/** @type {typeof import("../plugins/session-jsonl/src/paths.ts")} */
const { metaPathOf } = await src("paths");

const WORK = fileURLToPath(new URL("./.work/sessions", import.meta.url));
const MANY = join(WORK, "many");
const BIG = join(WORK, "big");
const DATA_VERSION = "1";
const SESSIONS = 1_000;
const BIG_ENTRIES = 50_000;
const GOAL_MS = 200;

const quiet = { cwd: "/bench/project", lock: { staleMs: 10_000 }, warn: (m) => console.error(`warning: ${m}`) };
const usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const text = (n, seed) => `${seed} `.padEnd(n, "lorem ipsum dolor sit amet ");
/** @typedef {import("@keel/extensions-api").Message} Message */
/** @type {(t: string) => Message} */
const user = (t) => ({ role: "user", content: t, timestamp: Date.now() });
/** @type {(t: string) => Message} */
const assistant = (t) => ({
  role: "assistant",
  content: [{ type: "text", text: t }],
  stopReason: "stop",
  usage,
  provider: "bench",
  model: "m",
  timestamp: Date.now(),
});
/** @type {(t: string) => Message} */
const result = (t) => ({
  role: "toolResult",
  toolCallId: "c",
  toolName: "read",
  content: [{ type: "text", text: t }],
  isError: false,
  timestamp: Date.now(),
});

function ms(t0) {
  return performance.now() - t0;
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
  /** @type {Message[]} */
  let history = [];
  for (let i = 0; i < BIG_ENTRIES; i++) {
    if (i > 0 && i % 400 === 0) {
      const cut = history.findIndex((m, k) => k >= history.length - 40 && m.role === "user");
      const summaryText = text(3_000, `summary ${i}`);
      history = [
        { role: "user", kind: "compaction_summary", content: summaryText, timestamp: Date.now() },
        ...history.slice(cut),
      ];
      r.recordCompaction(
        { reason: "threshold", tokensBefore: 150_000, tokensAfter: 20_000, summary: summaryText, firstKeptIndex: cut },
        history,
      );
      continue;
    }
    const k = i % 4;
    const m =
      k === 0
        ? user(text(400, `prompt ${i}`))
        : k === 1
          ? assistant(text(1_800, `step ${i}`))
          : k === 2
            ? result(text(3_200, `output ${i}`))
            : assistant(text(1_000, `answer ${i}`));
    history.push(m);
    r.recordMessage(m);
  }
  r.close();
  return r.path;
}

function dataReady() {
  return (
    existsSync(join(WORK, "version")) &&
    readdirSync(MANY).filter((f) => f.endsWith(".jsonl")).length === SESSIONS &&
    readdirSync(BIG).some((f) => f.endsWith(".jsonl"))
  );
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
  console.log(
    `generated ${SESSIONS} sessions (${(dirBytes(MANY) / 1e6).toFixed(0)} MB) in ${(ms(t0) / 1000).toFixed(1)} s`,
  );
  t0 = performance.now();
  generateBig();
  console.log(
    `generated one session of ${BIG_ENTRIES} entries (${(dirBytes(BIG) / 1e6).toFixed(0)} MB) in ` +
      `${(ms(t0) / 1000).toFixed(1)} s`,
  );
  writeFileSync(join(WORK, "version"), DATA_VERSION);
}
const bigPath = join(
  BIG,
  readdirSync(BIG).find((f) => f.endsWith(".jsonl")),
);

const rows = [];
/** One measurement, its goal if any, and a reference measured in the same run (what it is compared to). */
const row = (name, value, goal, reference) => rows.push({ name, value, goal, reference });

// Listing: with the index in place, then with every index entry removed (rebuilt from the files).
const list = time(5, () => {
  if (listSessions(MANY).length !== SESSIONS) throw new Error("listing lost sessions");
});
const statAll = time(5, () => readdirSync(MANY).forEach((f) => statSync(join(MANY, f))));
row(`list ${SESSIONS} sessions (${(dirBytes(MANY) / 1e6).toFixed(0)} MB)`, list, GOAL_MS, {
  name: "stat every file of the folder",
  value: statAll,
});
for (const f of readdirSync(MANY)) if (f.endsWith(".jsonl")) rmSync(metaPathOf(join(MANY, f)), { force: true });
row(
  `list ${SESSIONS} sessions, index missing (rebuilt)`,
  time(1, () => listSessions(MANY)),
);

// Resume: find the latest session, read its branch, take the lock, release it.
const resumeLatest = time(5, () => {
  const { recorder, context } = SessionRecorder.resume(latestSession(MANY), quiet);
  if (context.messages.length === 0) throw new Error("resumed nothing");
  recorder.close();
});
const latestBytes = statSync(latestSession(MANY)).size;
const readLatest = time(5, () => readFileSync(latestSession(MANY)));
row(`resume the latest of ${SESSIONS} sessions`, resumeLatest, GOAL_MS, {
  name: `find and read that file raw (${(latestBytes / 1e3).toFixed(0)} KB)`,
  value: readLatest,
});

const bigSize = statSync(bigPath).size;
let bigMessages = 0;
const resumeBig = time(5, () => {
  const { recorder, context } = SessionRecorder.resume(bigPath, quiet);
  bigMessages = context.messages.length;
  recorder.close();
});
const readBig = time(3, () => readFileSync(bigPath));
row(
  `resume one session of ${BIG_ENTRIES} entries (${(bigSize / 1e6).toFixed(0)} MB; ${bigMessages} messages in context)`,
  resumeBig,
  GOAL_MS,
  { name: "read the whole file raw", value: readBig },
);
row(
  `parse that whole session (/tree, /export)`,
  time(1, () => loadSession(bigPath)),
  undefined,
  { name: "read the whole file raw", value: readBig },
);

// Appends: 2 KB message entries on a fresh session, without and with fdatasync, against a bare O_APPEND write.
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
function rawAppendCost(count) {
  const file = join(WORK, "raw-append.jsonl");
  const fd = openSync(file, "a");
  const line = JSON.stringify({ type: "message", message: assistant(text(2_000, "entry")) }) + "\n";
  const t0 = performance.now();
  for (let i = 0; i < count; i++) writeSync(fd, line);
  const each = ms(t0) / count;
  closeSync(fd);
  rmSync(file);
  return each;
}
const raw = rawAppendCost(20_000);
const plain = appendCost(20_000, false);
const synced = appendCost(300, true);

const us = (v) => `${(v * 1000).toFixed(1)} µs`;
printTable("Session store (median of 5; the reference is measured in the same run)", [
  ["measurement", "median", "max", "goal", "reference", "reference time", "ratio"],
  ...rows.map((r) => [
    r.name,
    fmt(r.value.median),
    fmt(r.value.max),
    r.goal === undefined ? "" : `< ${r.goal} ms ${r.value.median < r.goal ? "✓" : "✗"}`,
    r.reference?.name ?? "",
    r.reference ? fmt(r.reference.value.median) : "",
    r.reference ? ratio(r.value.median, r.reference.value.median) : "",
  ]),
  ["append one 2 KB entry", us(plain), "", "", "bare O_APPEND write of the same line", us(raw), ratio(plain, raw)],
  [
    "append one 2 KB entry with fsync",
    us(synced),
    "",
    "",
    "bare O_APPEND write of the same line",
    us(raw),
    ratio(synced, raw),
  ],
]);
console.log(`\ntotal ${(ms(started) / 1000).toFixed(1)} s`);
const failed = rows.filter((r) => r.goal !== undefined && r.value.median >= r.goal);
process.exitCode = failed.length ? 1 : 0;
