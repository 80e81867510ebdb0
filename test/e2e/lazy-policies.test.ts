/**
 * permissions, hooks-command and sandbox-bwrap start with the host (they tap hooks and add flags), so each
 * keeps its implementation out of startup: through the real binary, a run with no hooks, no tool call and no
 * --sandbox reads nothing of the three but their built entries (and the small chunks those require); hooks, a
 * tool call and --sandbox load the chunks of their lazily imported modules. Which files were read is noted by a
 * `--require` preload (test/support/source-reads.cjs).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, KEEL_BIN, runKeel } from "../support/keel-cli.ts";

const PRELOAD = join(import.meta.dirname, "..", "support", "source-reads.cjs");
const ROOT = join(KEEL_BIN, "..", "..");
const OURS = ["plugins/permissions/", "plugins/hooks-command/", "plugins/sandbox-bwrap/"];

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());

/** Runs `keel -p` and returns the sources of the three plugins it read, relative to the repository. */
async function sourcesRead(extra: string[]): Promise<string[]> {
  const env = keelEnv();
  const reads = join(env.home, "reads.txt");
  const args = ["-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini", ...extra];
  const result = await runKeel(args, env, {
    extraEnv: {
      OPENAI_BASE_URL: `${llm.url}/v1`,
      OPENAI_API_KEY: "sk-test",
      NODE_OPTIONS: `--require ${PRELOAD}`,
      KEEL_TEST_READS: reads,
    },
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(reads, "utf8")
    .split("\n")
    .map((file) => relative(ROOT, file))
    .filter((file) => OURS.some((dir) => file.startsWith(dir)))
    .sort();
}

it("costs nothing when no hooks are configured, no tool is called and the sandbox is not chosen", async () => {
  llm.push({ reply: { text: "hello" } });
  expect(await sourcesRead([])).toEqual([
    "plugins/hooks-command/dist/configured.cjs",
    "plugins/hooks-command/dist/index.cjs",
    "plugins/permissions/dist/index.cjs",
    "plugins/permissions/dist/settings.cjs",
    "plugins/sandbox-bwrap/dist/index.cjs",
  ]);
});

it("loads the hook bridge, the rule engine with the bash parser and the sandbox when they are used", async () => {
  llm.push({ reply: { toolCalls: [{ name: "bash", arguments: { command: "true" } }] } }, { reply: { text: "ok" } });
  const hooks = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } };
  const read = await sourcesRead(["--settings", JSON.stringify(hooks), "--sandbox"]);
  expect(read).toEqual(
    expect.arrayContaining([
      "plugins/hooks-command/dist/bridge.cjs",
      "plugins/permissions/dist/guard.cjs",
      "plugins/sandbox-bwrap/dist/create.cjs",
    ]),
  );
});
