// Growth with the session's length: one `keel -p` run of 300 tool turns (the real binary, the default
// distribution, a local Chat Completions server that asks for `ls` every turn), and the time between the
// model's requests early in the run against late in it. Per-turn work that grows with the history
// (serialising it, re-hashing it, rewriting the session file) shows as a late/early ratio above 1; sending the
// whole history each turn is the one growth every agent has, and at these message sizes it is small.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, ms, okReply, printTable, ratio, startChatServer, toolCallReply } from "./lib.mjs";

const TURNS = Number(process.env.GROWTH_TURNS ?? 300);
const WINDOW = 20;
const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));

const server = await startChatServer({ reply: (n) => (n <= TURNS ? toolCallReply(n, "ls") : okReply()) });
const root = mkdtempSync(join(tmpdir(), "keel-bench-growth-"));
const cwd = join(root, "work");
mkdirSync(cwd);
for (const name of ["a.txt", "b.txt", "c.txt"]) writeFileSync(join(cwd, name), "x\n");

function run() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.GROWTH_NODE_ARGS?.split(" ") ?? []),
        bin,
        "-p",
        "go",
        "--provider",
        "openai",
        "--model",
        "gpt-4.1-mini",
      ],
      {
        cwd,
        stdio: ["ignore", "ignore", "inherit"],
        env: {
          ...process.env,
          KEEL_HOME: join(root, "home"),
          OPENAI_API_KEY: "bench",
          OPENAI_BASE_URL: server.url,
        },
      },
    );
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`keel exited ${code}`))));
  });
}

try {
  await run();
  const { arrivals } = server;
  const sizes = server.bodies.map((body) => Buffer.byteLength(body));
  if (arrivals.length !== TURNS + 1) throw new Error(`expected ${TURNS + 1} requests, saw ${arrivals.length}`);
  const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]);
  // The first gaps include the first tool call's one-time costs (the backend, lazy modules): skip them.
  const early = median(gaps.slice(2, 2 + WINDOW));
  const late = median(gaps.slice(-WINDOW));
  printTable(`${TURNS} tool turns in one \`keel -p\` run (median gap between requests over ${WINDOW} turns)`, [
    ["turns", "per turn", "request body", "vs early"],
    [`3–${2 + WINDOW}`, ms(early), `${(sizes[2] / 1024).toFixed(1)} KB`, "1.00×"],
    [`${TURNS - WINDOW + 1}–${TURNS}`, ms(late), `${(Number(sizes.at(-1)) / 1024).toFixed(1)} KB`, ratio(late, early)],
  ]);
} finally {
  server.close();
  rmSync(root, { recursive: true, force: true });
}
