// The file tools on real data, through the real tools and the real local backend:
// - find and grep over a generated tree of 50,000 files, as a ratio to running the same ripgrep binary directly
//   on the same tree (with the fallback walker, ripgrep switched off, as a second row);
// - read and edit on a 10 MB file, next to the plain fs calls they stand on;
// - the cost per call of race-safe file access (descriptor-checked folders, confirmed ripgrep results) against
//   the path-based access it replaced (bench/path-based-ops.mjs), on a small tree, in the same run.
// Runs are interleaved and medians reported. The tree is generated once under bench/.work/ (gitignored) and
// reused; TOOLS_FS_BENCH_RUNS sets the number of timed runs.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";
import { median, ms, printTable, ratio } from "./lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const jiti = createJiti(import.meta.url);
/** @type {typeof import("../plugins/ops-local/src/local-ops.ts")} */
const { createLocalOps } = await jiti.import(join(root, "plugins/ops-local/src/local-ops.ts"));
/** @type {typeof import("../plugins/tools-fs/src/tools.ts")} */
const { createFileTools } = await jiti.import(join(root, "plugins/tools-fs/src/tools.ts"));
/** @type {typeof import("../plugins/ops-local/src/spawn.ts")} */
const { spawnProcess } = await jiti.import(join(root, "plugins/ops-local/src/spawn.ts"));
/** @type {typeof import("../plugins/tools-fs/src/confirm.ts")} */
const { confirmHits, confirmListed } = await jiti.import(join(root, "plugins/tools-fs/src/confirm.ts"));
const { rgPath } = await import("@vscode/ripgrep");
const { pathBasedOps } = await import("./path-based-ops.mjs");

const RUNS = Number(process.env.TOOLS_FS_BENCH_RUNS ?? 7);
const FILES = 50_000;
const work = join(root, "bench/.work");
const tree = join(work, "tools-fs-tree");
const marker = join(tree, ".generated-50000-v1");

/** 50 top folders × 10 subfolders × 100 files of about 1 KB of source-like text; 1 file in 500 holds the rare word. */
function generateTree() {
  rmSync(tree, { recursive: true, force: true });
  let n = 0;
  for (let a = 0; a < 50; a++) {
    for (let b = 0; b < 10; b++) {
      const dir = join(tree, `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 100; c++, n++) {
        const rare = n % 500 === 0 ? "  // TODO: zanzibar\n" : "";
        const body = (
          `import { helper${c} } from "./helper";\n\nexport function f${n}(value: number): number ` +
          `{\n${rare}  const doubled = value * 2;\n  return helper${c}(doubled) + ${n};\n}\n`
        ).repeat(4);
        writeFileSync(join(dir, `file${c}.${c % 4 === 0 ? "js" : "ts"}`), body);
      }
    }
  }
  writeFileSync(join(tree, ".gitignore"), "node_modules/\n");
  writeFileSync(marker, String(n));
}

const t0 = performance.now();
if (!existsSync(marker)) generateTree();
const generated = performance.now() - t0;

/** Runs ripgrep directly (no shell, no tool), draining its output, and returns the wall time. */
function rgDirect(args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(rgPath, args, { cwd: tree, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.on("data", () => {});
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - start));
  });
}

const ops = createLocalOps({ cwd: tree });
const withRg = createFileTools({ ripgrep: true });
const withoutRg = createFileTools({ ripgrep: false });
const ctx = {
  signal: new AbortController().signal,
  toolCallId: "bench",
  cwd: ops.cwd,
  ops,
  dataDir: join(work, "data"),
  update() {},
};

async function timeTool(tool, input, check) {
  const start = performance.now();
  const result = await tool.execute(tool.parameters.parse(input), ctx);
  const elapsed = performance.now() - start;
  check?.(result);
  return elapsed;
}

const expectCount = (n) => (result) => {
  if (result.details.total !== undefined && result.details.total !== n)
    throw new Error(`expected ${n} results, got ${result.details.total}`);
  if (result.details.matches !== undefined && result.details.matches !== n)
    throw new Error(`expected ${n} matches, got ${result.details.matches}`);
};

const searchCases = [
  {
    name: 'find "*.js"',
    rg: ["--files", "--glob", "*.js"],
    tool: "find",
    input: { pattern: "*.js" },
    check: expectCount(12_500),
  },
  {
    name: 'find "pkg7/**/file1*.ts"',
    rg: ["--files", "--glob", "pkg7/**/file1*.ts"],
    tool: "find",
    input: { pattern: "pkg7/**/file1*.ts" },
    check: expectCount(90),
  },
  {
    name: 'grep "zanzibar" (100 hits)',
    rg: ["zanzibar"],
    tool: "grep",
    input: { pattern: "zanzibar" },
    check: expectCount(100),
  },
  {
    name: 'grep "doubled" (limit hit)',
    rg: ["doubled"],
    tool: "grep",
    input: { pattern: "doubled" },
    check: expectCount(100),
  },
];

const rows = [["case", "rg direct", "tool (ripgrep)", "ratio", "tool (walker)", "ratio"]];
for (const c of searchCases) {
  const direct = [];
  const viaRg = [];
  const viaWalker = [];
  await timeTool(withRg[c.tool], c.input, c.check); // warm the page cache and jiti
  for (let i = 0; i < RUNS; i++) {
    direct.push(await rgDirect(c.rg));
    viaRg.push(await timeTool(withRg[c.tool], c.input, c.check));
    if (i < Math.min(RUNS, 3)) viaWalker.push(await timeTool(withoutRg[c.tool], c.input, c.check));
  }
  const [d, r, w] = [median(direct), median(viaRg), median(viaWalker)];
  rows.push([c.name, ms(d), ms(r), ratio(r, d), ms(w), ratio(w, d)]);
}
printTable(
  `find and grep over ${FILES.toLocaleString("en")} files (medians of ${RUNS}; walker of ` +
    `3)${generated > 1000 ? `, tree generated in ${(generated / 1000).toFixed(1)} s` : ""}`,
  rows,
);

// read and edit on a 10 MB file
const bigDir = join(work, "tools-fs-big");
rmSync(bigDir, { recursive: true, force: true });
mkdirSync(bigDir, { recursive: true });
const line = (i) => `line ${String(i).padStart(7, "0")}: ${"lorem ipsum dolor sit amet ".repeat(2)}\n`;
const lines = [];
for (let size = 0, i = 0; size < 10 * 1024 * 1024; i++) {
  lines.push(line(i));
  size += lines[i].length;
}
const bigText = lines.join("");
const bigPath = join(bigDir, "big.txt");
writeFileSync(bigPath, bigText);
const bigOps = createLocalOps({ cwd: bigDir });
const bigCtx = { ...ctx, cwd: bigDir, ops: bigOps };
const middle = Math.floor(lines.length / 2);
let flip = 0;

async function readRaw() {
  const start = performance.now();
  readFileSync(bigPath);
  return performance.now() - start;
}
async function writeRaw() {
  const start = performance.now();
  const text = readFileSync(bigPath, "utf8");
  const handle = await open(bigPath, "w");
  await handle.writeFile(text);
  await handle.sync();
  await handle.close();
  return performance.now() - start;
}
async function toolCall(tool, input) {
  const start = performance.now();
  const result = await tool.execute(tool.parameters.parse(input), bigCtx);
  if (result.isError) throw new Error(String(result.content));
  return performance.now() - start;
}
/** @type {[string, () => Promise<number> | number][]} */
const fileCases = [
  ["fs.readFileSync (reference)", readRaw],
  ["read, first page", () => toolCall(withRg.read, { path: "big.txt" })],
  ["read, page at line 100,000", () => toolCall(withRg.read, { path: "big.txt", offset: 100_000 })],
  ["read + write + fsync (reference)", writeRaw],
  [
    "edit one line in the middle",
    () => {
      const [from, to] =
        flip++ % 2 === 0
          ? [line(middle), `${line(middle).trimEnd()} edited\n`]
          : [`${line(middle).trimEnd()} edited\n`, line(middle)];
      return toolCall(withRg.edit, { path: "big.txt", edits: [{ oldText: from, newText: to }] });
    },
  ],
];
const samples = fileCases.map(() => []);
for (let i = 0; i < RUNS + 1; i++) {
  for (const [j, [, fn]] of fileCases.entries()) {
    const value = await fn();
    if (i > 0) samples[j].push(value);
  }
}
const fileRows = [["case", "median", "vs reference"]];
for (const [j, [name]] of fileCases.entries()) {
  const reference = j < 3 ? median(samples[0]) : median(samples[3]);
  fileRows.push([name, ms(median(samples[j])), ratio(median(samples[j]), reference)]);
}
printTable(
  `read and edit on a ${(bigText.length / 1024 / 1024).toFixed(1)} MB file of ` +
    `${lines.length.toLocaleString("en")} lines (medians of ${RUNS})`,
  fileRows,
);
rmSync(bigDir, { recursive: true, force: true });

// Race-safe access per call: the same tools on the path-based reference and on today's backend, interleaved.
const smallDir = join(work, "tools-fs-small");
rmSync(smallDir, { recursive: true, force: true });
for (let a = 0; a < 10; a++) {
  mkdirSync(join(smallDir, `dir${a}`), { recursive: true });
  for (let b = 0; b < 100; b++)
    writeFileSync(
      join(smallDir, `dir${a}`, `f${b}.ts`),
      `export const v${b} = ${b};\n${b % 50 === 0 ? "// marker\n" : ""}`.repeat(20),
    );
}
const safeOps = createLocalOps({ cwd: smallDir });
const oldOps = pathBasedOps(safeOps, spawnProcess);
const contexts = [oldOps, safeOps].map((o) => ({ ...ctx, cwd: smallDir, ops: o }));
const SMALL_RUNS = Number(process.env.TOOLS_FS_BENCH_SMALL_RUNS ?? 60);
let writes = 0;
/** @type {[string, (o: any, c: any) => Promise<unknown>][]} */
const accessCases = [
  ["ops.list (100 entries)", (o) => o.list("dir3")],
  ["ops.stat", (o) => o.stat("dir3/f7.ts")],
  ["ops.readFile (0.5 KB)", (o) => o.readFile("dir3/f7.ts")],
  ["ops.writeFile (0.5 KB, fsync)", (o) => o.writeFile(`dir4/w${writes++ % 10}.txt`, "x".repeat(500))],
  ["ops.spawn true", (o) => o.spawn("true", { cwd: "dir5" }).exited],
  ["ls", (_, c) => withRg.ls.execute({ path: "dir3" }, c)],
  ["read", (_, c) => withRg.read.execute({ path: "dir3/f7.ts" }, c)],
  ["write", (_, c) => withRg.write.execute({ path: `dir6/w${writes++ % 10}.txt`, content: "y".repeat(500) }, c)],
  [
    'find "*.ts", ripgrep (1,000 files)',
    (_, c) => withRg.find.execute(withRg.find.parameters.parse({ pattern: "*.ts" }), c),
  ],
  ['find "*.ts", walker', (_, c) => withoutRg.find.execute(withoutRg.find.parameters.parse({ pattern: "*.ts" }), c)],
  [
    'grep "marker", ripgrep (400 hits)',
    (_, c) => withRg.grep.execute(withRg.grep.parameters.parse({ pattern: "marker", limit: 1000 }), c),
  ],
  [
    'grep "marker", walker',
    (_, c) => withoutRg.grep.execute(withoutRg.grep.parameters.parse({ pattern: "marker", limit: 1000 }), c),
  ],
];
const listed = Array.from({ length: 1000 }, (_, i) => `dir${Math.floor(i / 100)}/f${i % 100}.ts`);
const hits = Array.from({ length: 20 }, (_, i) => ({
  path: `dir${Math.floor(i / 2)}/f${(i % 2) * 50}.ts`,
  hits: [{ line: 2, text: "// marker", match: true }],
}));
/** Parts of the "now" searches, timed alone: confirming what ripgrep reported through the backend. */
/** @type {Record<string, [string, () => Promise<unknown>]>} */
const confirmAfter = {
  'find "*.ts", ripgrep (1,000 files)': [
    "  of which: confirming 1,000 listed files",
    () => confirmListed(safeOps, ".", listed),
  ],
  'grep "marker", ripgrep (400 hits)': [
    "  of which: confirming hits in 20 files",
    () => confirmHits(safeOps, ".", hits),
  ],
};
const timed = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const accessRows = [["call", "path-based (before)", "descriptor-based (now)", "ratio", "cost per call"]];
for (const [name, fn] of accessCases) {
  const runs =
    name.includes("walker") || name.includes("find") || name.includes("grep") ? Math.ceil(SMALL_RUNS / 3) : SMALL_RUNS;
  const [before, now] = [[], []];
  for (const c of contexts) await fn(c.ops, c); // warm up both
  for (let i = 0; i < runs; i++) {
    before.push(await timed(() => fn(oldOps, contexts[0])));
    now.push(await timed(() => fn(safeOps, contexts[1])));
  }
  const [b, n] = [median(before), median(now)];
  accessRows.push([name, ms(b), ms(n), ratio(n, b), `${((n - b) * 1000).toFixed(0)} µs`]);
  const part = confirmAfter[name];
  if (part) {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await timed(part[1]));
    accessRows.push([part[0], "", ms(median(samples)), "", ""]);
  }
}
printTable(
  `race-safe file access per call on a tree of 1,000 files (medians of ${SMALL_RUNS}, searches of ` +
    `${Math.ceil(SMALL_RUNS / 3)}); the same tools on both backends`,
  accessRows,
);
rmSync(smallDir, { recursive: true, force: true });
