/**
 * The `keel` binary against the mock LLM server in each wire format: the model calls the `read` tool, keel
 * runs it, sends the result back in that format, and prints the model's final answer.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../support/mock-llm/index.js";

const ROOT = resolve(import.meta.dirname, "../..");

function runKeel(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, "bin/keel.js"), ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const CASES = [
  { provider: "openai", plugin: "provider-openai", model: "gpt-4.1-mini", env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-e2e" }) },
  { provider: "openai-responses", plugin: "provider-openai-responses", model: "gpt-5-mini", env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-e2e" }) },
  { provider: "anthropic", plugin: "provider-anthropic", model: "claude-sonnet-4-5", env: (url: string) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: "sk-ant-e2e" }) },
] as const;

describe("keel binary against the mock LLM server", () => {
  let llm: MockLlm;
  let root: string;
  beforeAll(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "keel-e2e-providers-"));
  });
  afterAll(async () => {
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  });

  for (const c of CASES) {
    it(`runs a tool call and prints the final answer over ${c.provider}`, async () => {
      const workspace = join(root, c.provider, "workspace");
      const home = join(root, c.provider, "home");
      mkdirSync(workspace, { recursive: true });
      mkdirSync(home, { recursive: true });
      writeFileSync(join(workspace, "hello.txt"), "the secret word is pelican\n");
      const first = llm.requests.length;
      llm.push({ reply: { text: "Let me read it.", toolCalls: [{ id: "call_e2e_1", name: "read", arguments: { path: "hello.txt" } }] } }, { reply: { text: "The file says the secret word is pelican." } });

      const plugins = [c.plugin, "tools-fs", "ops-local"].flatMap((p) => ["--plugin", join(ROOT, "plugins", p)]);
      const run = await runKeel(["-p", "What does hello.txt say?", "--provider", c.provider, "--model", c.model, ...plugins], { KEEL_HOME: home, ...c.env(llm.url) }, workspace);

      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("The file says the secret word is pelican.");
      const requests = llm.requests.slice(first);
      expect(requests.map((r) => r.format)).toEqual([c.provider, c.provider]);
      // The second request carries the tool's output back in this format.
      expect(JSON.stringify(requests[1]!.body)).toContain("the secret word is pelican");
      expect(JSON.stringify(requests[1]!.body)).toContain("call_e2e_1");
    });
  }
});
