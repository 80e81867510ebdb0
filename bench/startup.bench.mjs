// Startup: `keel --version` and process start → first provider request, against `node -e 0` measured in the
// same run; and how the first request moves with 0, 10 and 50 installed lazy plugins. keel runs as a command, as
// users run it, so its shebang's flags apply.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, ms, printTable, ratio, startChatServer, timeProcess } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));

function homeWithLazyPlugins(count) {
  const home = mkdtempSync(join(tmpdir(), "keel-bench-home-"));
  for (let i = 0; i < count; i++) {
    const dir = join(home, "plugins", `lazy-${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: `lazy-${i}`,
        version: "1.0.0",
        type: "module",
        keel: { apiVersion: "^1.0.0", entry: "./index.ts", contributes: { commands: [`/lazy${i}`] } },
      }),
    );
    writeFileSync(
      join(dir, "index.ts"),
      `import { definePlugin } from "@keel/extensions-api";\nexport default definePlugin({ ` +
        `activate(api) { api.registerCommand({ name: "/lazy${i}", description: "x", run() {} }); } });\n`,
    );
  }
  return home;
}

/** Peak resident memory of one `keel -p` run (its own KEEL_TRACE report), in MB. */
function peakRss(server, home) {
  return new Promise((resolve, reject) => {
    let stderr = "";
    const child = spawn(bin, ["-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini"], {
      stdio: ["ignore", "ignore", "pipe"],
      cwd: home,
      env: { ...process.env, KEEL_TRACE: "1", KEEL_HOME: home, OPENAI_API_KEY: "bench", OPENAI_BASE_URL: server.url },
    });
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", () => {
      const match = /peak RSS (\d+) MB/.exec(stderr);
      match ? resolve(Number(match[1])) : reject(new Error(`no peak RSS in: ${stderr.slice(-300)}`));
    });
  });
}

/** Spawn → first request arrival, in ms. */
async function firstRequest(server, home) {
  const start = performance.now();
  const before = server.arrivals.length;
  await new Promise((resolve, reject) => {
    const child = spawn(bin, ["-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini"], {
      stdio: "ignore",
      cwd: home,
      env: { ...process.env, KEEL_HOME: home, OPENAI_API_KEY: "bench", OPENAI_BASE_URL: server.url },
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`keel exited ${code}`))));
  });
  if (server.arrivals.length === before) throw new Error("keel made no request");
  return server.arrivals[before] - start;
}

const server = await startChatServer();
try {
  const homes = { 0: homeWithLazyPlugins(0), 10: homeWithLazyPlugins(10), 50: homeWithLazyPlugins(50) };
  await firstRequest(server, homes[0]); // warm the jiti cache, the code cache and the OS file cache
  // Interleaved: one run of every measure per round, so a burst of load on the machine hits them all alike.
  const samples = { node: [], version: [], 0: [], 10: [], 50: [] };
  for (let i = 0; i < RUNS; i++) {
    samples.node.push(await timeProcess(process.execPath, ["-e", "0"]));
    samples.version.push(await timeProcess(bin, ["--version"]));
    for (const n of [0, 10, 50]) samples[n].push(await firstRequest(server, homes[n]));
  }
  if (process.env.BENCH_SAMPLES)
    console.log(JSON.stringify(samples, (k, v) => (typeof v === "number" ? Math.round(v) : v)));
  const node = median(samples.node);
  const version = median(samples.version);
  const first = { 0: median(samples[0]), 10: median(samples[10]), 50: median(samples[50]) };
  printTable(`startup (median of ${RUNS})`, [
    ["measure", "time", "vs node -e 0"],
    ["node -e 0", ms(node), "1.00×"],
    ["keel --version", ms(version), ratio(version, node)],
    ["start → first request", ms(first[0]), ratio(first[0], node)],
    ["… with 10 lazy plugins", ms(first[10]), `${ratio(first[10], first[0])} of 0 plugins`],
    ["… with 50 lazy plugins", ms(first[50]), `${ratio(first[50], first[0])} of 0 plugins`],
  ]);
  const rss = median([
    await peakRss(server, homes[0]),
    await peakRss(server, homes[0]),
    await peakRss(server, homes[0]),
  ]);
  const body = Buffer.byteLength(server.bodies[0]);
  const bare = Math.round(
    Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"], {
        encoding: "utf8",
      }).stdout,
    ) / 1024,
  );
  console.log(
    `\nPeak resident memory of a \`keel -p\` run (median of 3): ${rss} MB, ` +
      `${(rss / bare).toFixed(2)}× bare \`node -e\` (${bare} MB).`,
  );
  console.log(
    `\nFirst request body (system prompt, tool schemas, the prompt): ${body} bytes ≈ ${Math.round(body / 4)} tokens.`,
  );
} finally {
  server.close();
}
