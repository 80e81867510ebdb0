/**
 * Tools with nothing to act on yet are not sent: through the real binary and the mock model over Chat
 * Completions, the first request has no `process` and no `read_result`; `process` joins once a background
 * process exists and `read_result` once a large result was stored; and between two turns that change neither,
 * the tools sent are byte for byte the same (so a provider's prompt cache holds). A resumed session that stored
 * a result offers `read_result` from its first request, and a run that stores none leaves no data folder.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, runKeel } from "../support/keel-cli.ts";

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());

const bash = (args: Record<string, unknown>) => ({ reply: { toolCalls: [{ name: "bash", arguments: args }] } });

it("offers process and read_result only once they have something to act on, and keeps the tools stable", async () => {
  llm.push(
    bash({ command: "sleep 30", background: true }),
    bash({ command: "echo hi" }),
    // One 40 KB line: under bash's own 50 KB cut, over the 16 KB at which a result is stored.
    bash({ command: "head -c 40000 /dev/zero | tr '\\0' a" }),
    { reply: { text: "done" } },
  );
  const env = keelEnv();
  const result = await runKeel(["-p", "go", "--provider", "openai", "--model", "gpt-4.1-mini"], env, {
    extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" },
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).toBe(0);

  const tools = llm.requests.map((r) => (r.body.tools as { function: { name: string } }[]) ?? []);
  const names = tools.map((list) => list.map((t) => t.function.name).sort());
  expect(names).toHaveLength(4);
  expect(names[0]).toEqual(expect.arrayContaining(["read", "bash"]));
  expect(names[0]).not.toContain("process");
  expect(names[0]).not.toContain("read_result");
  expect(names[1]).toEqual([...names[0]!, "process"].sort());
  expect(JSON.stringify(tools[2])).toBe(JSON.stringify(tools[1]));
  expect(names[3]).toEqual([...names[1]!, "read_result"].sort());
});

it("offers read_result on resuming a session that stored one; a run storing none makes no data folder", async () => {
  const openai = ["--provider", "openai", "--model", "gpt-4.1-mini"];
  const extraEnv = { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" };
  const toolNames = (i: number) =>
    ((llm.requests[i]!.body.tools as { function: { name: string } }[]) ?? []).map((t) => t.function.name);

  const quiet = keelEnv();
  llm.push({ reply: { text: "hello" } });
  const text = await runKeel(["-p", "hi", ...openai], quiet, { extraEnv, timeoutMs: 60_000 });
  expect(text.code, text.stderr).toBe(0);
  const data = join(quiet.home, "data");
  expect(existsSync(data) ? readdirSync(data) : []).toEqual([]);

  const env = keelEnv();
  llm.push(bash({ command: "head -c 40000 /dev/zero | tr '\\0' a" }), { reply: { text: "stored" } });
  const first = await runKeel(["-p", "go", ...openai], env, { extraEnv, timeoutMs: 60_000 });
  expect(first.code, first.stderr).toBe(0);
  expect(toolNames(llm.requests.length - 1)).toContain("read_result");
  llm.push({ reply: { text: "again" } });
  const resumed = await runKeel(["-c", "-p", "more", ...openai], env, { extraEnv, timeoutMs: 60_000 });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(toolNames(llm.requests.length - 1)).toContain("read_result");
});
