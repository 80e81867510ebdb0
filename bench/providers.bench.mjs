// Provider plugins: SSE parse throughput per wire format (recorded reference streams and one long rendered
// reply, fed from memory so only parsing and decoding are timed), the added latency from the last byte
// received to the loop's message_end event (real HTTP, real host), and each provider plugin's load time
// through the host's loader, against a trivial plugin loaded the same way in the same run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";
import { median, ms, printTable, ratio } from "./lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const jiti = createJiti(import.meta.url);
/**
 * @typedef {{ format: "openai" | "openai-responses" | "anthropic"; plugin: string; spec: string; model: string;
 *   env: Record<string, string> }} Format
 */
/** @type {Format[]} */
const FORMATS = [
  {
    format: "openai",
    plugin: "provider-openai",
    spec: "OPENAI",
    model: "gpt-4.1-mini",
    env: { OPENAI_API_KEY: "bench" },
  },
  {
    format: "openai-responses",
    plugin: "provider-openai-responses",
    spec: "OPENAI_RESPONSES",
    model: "gpt-5-mini",
    env: { OPENAI_API_KEY: "bench" },
  },
  {
    format: "anthropic",
    plugin: "provider-anthropic",
    spec: "ANTHROPIC",
    model: "claude-sonnet-4-5",
    env: { ANTHROPIC_API_KEY: "bench" },
  },
];
/** @type {typeof import("../libs/provider-kit/src/mock-llm/render.ts")} */
const { render } = await jiti.import(join(root, "libs/provider-kit/src/mock-llm/render.ts"));
/** @type {typeof import("../libs/provider-kit/src/mock-llm/server.ts")} */
const { startMockLlm } = await jiti.import(join(root, "libs/provider-kit/src/mock-llm/server.ts"));
/** @type {typeof import("../test/support/kit-providers.ts")} */
const { kitProviders } = await jiti.import(join(root, "test/support/kit-providers.ts"));

function memoryFetch(chunks) {
  return async () =>
    new Response(
      new ReadableStream({
        start(c) {
          for (const x of chunks) c.enqueue(x);
          c.close();
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream" } },
    );
}

async function drain(provider, model, signal = new AbortController().signal) {
  let last;
  for await (const e of provider.stream(
    { model, systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 0 }], tools: [] },
    { signal },
  ))
    last = e;
  if (last?.type !== "done") throw new Error(`stream ended with ${last?.type}: ${last?.message?.errorMessage}`);
}

/** MB/s of SSE bytes through provider.stream, fed from memory in `chunkSize` pieces. */
async function throughput(f, streams, repeat, chunkSize) {
  const spec = (await jiti.import(join(root, "plugins", f.plugin, "src/vendor.ts")))[f.spec];
  const pieces = streams.map((bytes) => {
    const out = [];
    for (let i = 0; i < bytes.length; i += chunkSize) out.push(bytes.subarray(i, i + chunkSize));
    return out;
  });
  const make = (chunks) => kitProviders(spec, {}, { env: f.env, fetch: memoryFetch(chunks) })[0];
  const model = make([])
    .models()
    .find((m) => m.id === f.model);
  const providers = pieces.map(make);
  for (const p of providers) await drain(p, model); // warm up
  let bytes = 0;
  const start = performance.now();
  for (let r = 0; r < repeat; r++)
    for (const [i, p] of providers.entries()) {
      await drain(p, model);
      bytes += streams[i].length;
    }
  const seconds = (performance.now() - start) / 1000;
  return bytes / 1e6 / seconds;
}

const rows = [["format", "recorded streams (MB/s)", "long reply, 16 KB reads (MB/s)", "long reply size"]];
for (const f of FORMATS) {
  const dir = join(root, "test/fixtures/streams", f.format);
  const recorded = readdirSync(dir)
    .filter(
      (n) =>
        n.endsWith(".sse") &&
        JSON.parse(readFileSync(join(dir, n.replace(/\.sse$/, ".expected.json")), "utf8")).stopReason !== "error",
    )
    .map((n) => new Uint8Array(readFileSync(join(dir, n))));
  const text = "The quick brown fox jumps over the lazy dog. ".repeat(20_000);
  const long = new TextEncoder().encode(render(f.format, { text, chunk: 12 }, f.model, 1).events.join(""));
  const a = await throughput(f, recorded, 300, 1 << 20);
  const b = await throughput(f, [long], 3, 16 * 1024);
  rows.push([f.format, a.toFixed(1), b.toFixed(1), `${(long.length / 1e6).toFixed(1)} MB`]);
}
printTable("SSE parse + decode throughput (from memory, no sockets)", rows);

// A reply's decode as a run pays it: in a fresh process under keel's shebang flags (keel's functions mostly stay
// interpreted) and zod without its compiled parsers (as the CLI sets it), 20 tool-call replies of the peers' mock
// shape decoded through provider-kit's build, with the fast check and with zod alone (`withSchemaAlone`).
const COLD_RUNS = Number(process.env.BENCH_RUNS ?? 9);
const coldDir = mkdtempSync(join(tmpdir(), "keel-bench-decode-"));
const coldChild = join(coldDir, "decode.cjs");
const coldRows = [["format", "fast check (µs a reply)", "zod alone (µs a reply)", "ratio"]];
writeFileSync(
  coldChild,
  `const [kitPath, eventsFile, mode, format] = process.argv.slice(2);
require(require.resolve("zod", { paths: [kitPath] })).config({ jitless: true });
const kit = require(kitPath);
const { AssistantMessageBuilder } = require(require.resolve("@keel/extensions-api/stream", { paths: [kitPath] }));
const replies = JSON.parse(require("node:fs").readFileSync(eventsFile, "utf8"));
const create = { openai: kit.createChatDecoder, "openai-responses": kit.createResponsesDecoder,
  anthropic: kit.createAnthropicDecoder }[format];
const request = { model: { id: "m", provider: format, contextWindow: 100000, maxOutput: 1000 }, systemPrompt: "",
  messages: [], tools: [] };
const start = process.hrtime.bigint();
for (const events of replies) {
  const decoder = create(new AssistantMessageBuilder(format, "m"), request, "X");
  for (const event of events) mode === "zod" ? kit.withSchemaAlone(() => decoder.push(event)) : decoder.push(event);
}
process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1000 / replies.length));`,
);
const kitDist = join(root, "libs/provider-kit/dist/index.cjs");
for (const f of FORMATS) {
  const replies = Array.from({ length: 20 }, (_, n) =>
    render(f.format, { toolCalls: [{ name: "bash", arguments: { command: `echo turn-${n}` } }] }, f.model, n)
      .events.join("")
      .split("\n\n")
      .filter((block) => block.includes("data: "))
      .map((block) => {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)[1];
        return event ? { event, data } : { data };
      }),
  );
  const eventsFile = join(coldDir, `${f.format}.json`);
  writeFileSync(eventsFile, JSON.stringify(replies));
  const times = { fast: [], zod: [] };
  for (let i = 0; i < COLD_RUNS; i++)
    for (const mode of i % 2 ? ["zod", "fast"] : ["fast", "zod"]) {
      const args = [
        "--max-semi-space-size=1",
        "--invocation-count-for-turbofan=21000",
        coldChild,
        kitDist,
        eventsFile,
        mode,
      ];
      const run = spawnSync(process.execPath, [...args, f.format], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(run.stderr);
      times[mode].push(Number(run.stdout));
    }
  const [fast, zod] = [median(times.fast), median(times.zod)];
  coldRows.push([f.format, fast.toFixed(0), zod.toFixed(0), ratio(fast, zod)]);
}
printTable(`Decode of a tool-call reply in a fresh process, keel's flags (median of ${COLD_RUNS})`, coldRows);

// Latency: last body chunk handed to the provider → message_end event, through the real host over HTTP. The
// providers send through node:http, not the global fetch: the timed fetch reaches them as the tests' fetch does.
/** @type {typeof import("../libs/provider-kit/src/http-provider.ts")} */
const { installTestDeps } = await jiti.import(join(root, "libs/provider-kit/src/http-provider.ts"));
const realFetch = globalThis.fetch;
let lastChunkAt = 0;
installTestDeps({
  fetch: async (input, init) => {
    const response = await realFetch(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        lastChunkAt = performance.now();
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  },
});
const { createTestKit } = await import("@keel/testing");
const SAMPLES = Number(process.env.BENCH_RUNS ?? 30);
const latency = [["format", "last byte → message_end (median)", "p90", "samples"]];
const llm = await startMockLlm();
for (const f of FORMATS) {
  const kit = await createTestKit({
    plugins: [join(root, "plugins", f.plugin)],
    settings: {
      provider: f.format,
      model: f.model,
      providers: { [f.format]: { baseUrl: `${llm.url}/v1`, apiKey: "bench" } },
    },
  });
  const values = [];
  let endAt = 0;
  kit.runtime.events.on("message_end", ({ message }) => {
    if (message.role === "assistant") endAt = performance.now();
  });
  for (let i = 0; i < SAMPLES + 3; i++) {
    llm.push({ reply: { text: "A short answer of a few words.", chunk: 6 } });
    const result = await kit.run("hi");
    if (result.reason !== "stop") throw new Error(`${f.format}: ${result.errorMessage}`);
    if (i >= 3) values.push(endAt - lastChunkAt);
  }
  await kit.dispose();
  values.sort((x, y) => x - y);
  latency.push([f.format, ms(median(values)), ms(values[Math.floor(values.length * 0.9)]), String(values.length)]);
}
await llm.close();
installTestDeps(undefined);
printTable("Added latency, last byte received → message_end (real HTTP on 127.0.0.1, real host)", latency);

// Load time: the host's own loader (jiti with its cache) importing each entry, in a fresh process per sample.
const loaderUrl = new URL("../core/dist/host/loader.js", import.meta.url).href;
const trivial = mkdtempSync(join(tmpdir(), "keel-bench-trivial-"));
mkdirSync(join(trivial, "src"));
writeFileSync(
  join(trivial, "src/index.ts"),
  `import { definePlugin } from "@keel/extensions-api";\nexport default definePlugin({ activate() {} });\n`,
);
/** ms for the host's loader to import the plugin at `dir`, after jiti itself and a trivial plugin are warm. */
function loadMs(dir) {
  const timed =
    `const { loadEntry } = await import(${JSON.stringify(loaderUrl)}); await ` +
    `loadEntry(${JSON.stringify(trivial)}, "./src/index.ts"); const t = performance.now(); await ` +
    `loadEntry(${JSON.stringify(dir)}, "./src/index.ts"); process.stdout.write(String(performance.now() - t));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", timed], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stdout);
}
const LOADS = Number(process.env.BENCH_RUNS ?? 10);
const other = mkdtempSync(join(tmpdir(), "keel-bench-trivial2-"));
mkdirSync(join(other, "src"));
writeFileSync(join(other, "src/index.ts"), readFileSync(join(trivial, "src/index.ts")));
const targets = [other, ...FORMATS.map((f) => join(root, "plugins", f.plugin))];
loadMs(targets[1]); // fills jiti's file cache
// Interleaved, so load on the machine during the run hits every plugin alike.
const samples = targets.map(() => []);
for (let i = 0; i < LOADS; i++) targets.forEach((dir, j) => samples[j].push(loadMs(dir)));
const base = median(samples[0]);
const load = [
  ["plugin", "load (median)", "vs trivial plugin"],
  ["(trivial plugin)", ms(base), "1.00×"],
];
FORMATS.forEach((f, j) => load.push([f.plugin, ms(median(samples[j + 1])), ratio(median(samples[j + 1]), base)]));
printTable(`Plugin load time through the host's loader (warm jiti cache, median of ${LOADS} processes)`, load);
