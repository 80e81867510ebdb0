// What the first request costs with the default distribution: the bytes of the system prompt, the tool
// schemas and the whole body `keel -p hi` sends (in a git repository with no AGENTS.md, skills or templates),
// next to the system prompts of pi (2.4 KB) and Claude Code (12 KB) as the issue measured them. Sizes, not
// times: one run each is exact.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, startChatServer } from "./lib.mjs";

const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const PEERS = { pi: 2.4 * 1024, "Claude Code": 12 * 1024 };

function firstRequest(server) {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-context-"));
  const cwd = join(root, "work");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  writeFileSync(join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini"], {
      stdio: "ignore",
      cwd,
      env: { ...process.env, KEEL_HOME: join(root, "home"), OPENAI_API_KEY: "bench", OPENAI_BASE_URL: server.url },
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(server.bodies.at(-1)) : reject(new Error(`keel exited ${code}`))));
  });
}

const server = await startChatServer();
try {
  const raw = await firstRequest(server);
  const body = JSON.parse(raw);
  const system = body.messages.find((m) => m.role === "system").content;
  const bytes = (v) => Buffer.byteLength(typeof v === "string" ? v : JSON.stringify(v));
  const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
  const prompt = bytes(system);
  const tools = bytes(body.tools);
  printTable("first request with the default distribution (bytes)", [
    ["part", "size", "vs keel's system prompt"],
    ["system prompt", kb(prompt), "1.00×"],
    ...Object.entries(PEERS).map(([name, size]) => [
      `… ${name}'s system prompt`,
      kb(size),
      `${(size / prompt).toFixed(1)}×`,
    ]),
    [`tool schemas (${body.tools.length} tools)`, kb(tools), `${(tools / prompt).toFixed(1)}×`],
    ["whole request body", kb(bytes(raw)), `${(bytes(raw) / prompt).toFixed(1)}×`],
  ]);
  if (process.env.BENCH_SAMPLES) console.log(`\n${system}`);
} finally {
  server.close();
}
