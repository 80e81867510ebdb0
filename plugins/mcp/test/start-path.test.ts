/**
 * "No added time" for servers a run never uses: through the real binary, once the servers' tool lists are
 * cached, a run that calls none of their tools starts none of them, imports neither the SDK nor the modules
 * that check entries, parse listings or map results, and reads nothing of $KEEL_HOME/mcp but the cache file.
 * Which files were read is noted by the `--require` preload of test/support/source-reads.cjs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, KEEL_BIN, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";
import { tiny } from "./servers.ts";

const PRELOAD = join(KEEL_BIN, "..", "..", "test", "support", "source-reads.cjs");
const ROOT = join(KEEL_BIN, "..", "..");

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());

it("starts no server, loads no SDK and reads only the cache file when the run uses no MCP tool", async () => {
  const servers = [tiny(), tiny(), tiny()];
  const env = keelEnv({ script: [{ text: "one" }] });
  const mcpServers = Object.fromEntries(servers.map((t, i) => [`tiny${i}`, t.server]));
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ mcpServers }));
  const first = await runKeel(["-p", "hi", ...SCRIPTED], env);
  expect(first.code, first.stderr).toBe(0);
  // Never seen before: each started once at session start to list its tools.
  expect(servers.map((t) => t.startCount())).toEqual([1, 1, 1]);

  const reads = join(env.cwd, "reads.txt");
  const mcpHome = join(env.home, "mcp");
  llm.push({ reply: { text: "hello" } });
  const second = await runKeel(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini"], env, {
    extraEnv: {
      OPENAI_BASE_URL: `${llm.url}/v1`,
      OPENAI_API_KEY: "sk-test",
      NODE_OPTIONS: `--require ${PRELOAD}`,
      KEEL_TEST_READS: reads,
      KEEL_TEST_READS_UNDER: mcpHome,
    },
  });
  expect(second.code, second.stderr).toBe(0);
  // The cached tools were offered (the model could have called them) …
  const body = llm.requests.at(-1)!.body as { tools: { function: { name: string } }[] };
  expect(body.tools.map((t) => t.function.name)).toEqual(
    expect.arrayContaining(["mcp__tiny0__greet", "mcp__tiny1__greet", "mcp__tiny2__greet"]),
  );
  // … and no server started for it.
  expect(servers.map((t) => t.startCount())).toEqual([1, 1, 1]);
  const files = readFileSync(reads, "utf8").split("\n");
  expect(files.filter((file) => file.includes("/node_modules/@modelcontextprotocol/"))).toEqual([]);
  const read = files
    .filter((file) => file.startsWith(mcpHome) || file.includes("/plugins/mcp/"))
    .map((file) => (file.startsWith(mcpHome) ? relative(env.home, file) : relative(ROOT, file)))
    .sort();
  // The start path, as chunks of the built plugin (scripts/build-plugins.mjs): the entry (with its settings and
  // the look at plugins' servers), the hub with what registers tools, prompts and the resource tool (create-hub)
  // and the cache; not the SDK (connection.ts requires it when a server starts), nor the chunks of servers.ts,
  // listing.ts, results.ts, stdio-transport.ts, oauth.ts, client-requests.ts or cli.ts.
  expect(read).toEqual([
    "mcp/servers.json",
    ...["create-hub", "index", "store"].map((m) => `plugins/mcp/dist/${m}.cjs`),
  ]);
});
