// Shared helpers for the benchmarks: timing child processes, medians, and printing a table.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time in ms of one child process, from spawn to exit. */
export function timeProcess(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: "ignore", ...options });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 || options.allowFail
        ? resolve(performance.now() - start)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}

export function printTable(title, rows) {
  console.log(`\n## ${title}\n`);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((c, j) => String(c).padEnd(widths[j])).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  }
}

export const ms = (v) => `${v.toFixed(1)} ms`;
export const ratio = (v, base) => `${(v / base).toFixed(2)}×`;

/**
 * Runs each case `warmup + runs` times, interleaved (one of each per round, so drift hits all alike), and
 * returns the timings of each case after the warm-up. A case resolves to its own elapsed ms.
 * @param {[string, () => Promise<number>][]} cases
 */
export async function interleaved(cases, warmup, runs) {
  const samples = cases.map(() => /** @type {number[]} */ ([]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const [k, [, fn]] of cases.entries()) {
      const t = await fn();
      if (i >= warmup) samples[k].push(t);
    }
  }
  return samples;
}

/** One Chat Completions stream chunk, as an SSE event. */
export const chatChunk = (delta, finish) => {
  const choices = [{ index: 0, delta, finish_reason: finish }];
  const event = { id: "b", object: "chat.completion.chunk", created: 0, model: "gpt-4.1-mini", choices };
  return `data: ${JSON.stringify(event)}\n\n`;
};

/** A whole streamed reply: the text `ok`. */
export const okReply = () =>
  chatChunk({ role: "assistant", content: "ok" }, null) + chatChunk({}, "stop") + "data: [DONE]\n\n";

/** A whole streamed reply that calls `name` with `args` (call id `call_<n>`). */
export const toolCallReply = (n, name, args = {}) =>
  chatChunk(
    {
      role: "assistant",
      tool_calls: [
        { index: 0, id: `call_${n}`, type: "function", function: { name, arguments: JSON.stringify(args) } },
      ],
    },
    null,
  ) +
  chatChunk({}, "tool_calls") +
  "data: [DONE]\n\n";

/**
 * A Chat Completions server on 127.0.0.1 that notes when each request arrived and its body, and answers the
 * n-th request (from 1) with `reply(n)`, by default "ok"; `url` is the base URL (`…/v1`) for OPENAI_BASE_URL.
 * @param {{ reply?: (n: number) => string }} [options]
 */
export async function startChatServer({ reply = okReply } = {}) {
  /** @type {number[]} */
  const arrivals = [];
  /** @type {string[]} */
  const bodies = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    const n = arrivals.length;
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(reply(n));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", () => r(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}/v1`, arrivals, bodies, close: () => server.close() };
}

const root = fileURLToPath(new URL("..", import.meta.url));
const jiti = createJiti(import.meta.url);

/**
 * A module of the repository loaded from its TypeScript source, as the host would load a plugin's; the caller
 * types it with `@type {typeof import(...)}`.
 * @param {string} path relative to the repository
 * @returns {Promise<any>}
 */
export function importSource(path) {
  return jiti.import(join(root, path));
}

/**
 * The real bash tool with default settings, as a case that times `bash({ command })` on the backend `ops`
 * (its data folder under `dataDir`) and fails loudly if the command does not exit 0.
 * @param {import("@keel/extensions-api").Operations} ops
 * @param {string} dataDir
 */
export async function bashToolCase(ops, dataDir, command = "true") {
  /** @type {typeof import("../plugins/tool-bash/src/bash-tool.ts")} */
  const { bashTool } = await importSource("plugins/tool-bash/src/bash-tool.ts");
  /** @type {typeof import("../plugins/tool-bash/src/background.ts")} */
  const { BackgroundProcesses } = await importSource("plugins/tool-bash/src/background.ts");
  /** @type {typeof import("../plugins/tool-bash/src/settings.ts")} */
  const { BashSettingsSchema } = await importSource("plugins/tool-bash/src/settings.ts");
  const settings = BashSettingsSchema.parse({});
  const tool = bashTool(settings, new BackgroundProcesses(settings));
  let calls = 0;
  return async () => {
    const ctx = {
      signal: new AbortController().signal,
      toolCallId: `bench_${++calls}`,
      cwd: ops.cwd,
      ops,
      dataDir,
      update() {},
    };
    const start = performance.now();
    const result = await tool.execute({ command }, /** @type {any} a tool context without a runtime */ (ctx));
    const elapsed = performance.now() - start;
    if (/** @type {{ exitCode: number }} */ (result.details).exitCode !== 0)
      throw new Error(`bash ${command} failed: ${JSON.stringify(result.content)}`);
    return elapsed;
  };
}
