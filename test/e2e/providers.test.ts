/**
 * The `keel` binary against the mock LLM server in each wire format: the model calls the `read` tool, keel
 * runs it, sends the result back in that format, and prints the model's final answer.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";

const ROOT = resolve(import.meta.dirname, "../..");

/** An example plugin copied outside the repository (no node_modules near it): keel must map its imports. */
function outsideTheRepo(example: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "keel-e2e-plugin-")), example.replace(/^examples\//, ""));
  cpSync(join(ROOT, example), dir, { recursive: true });
  return dir;
}

function runKeel(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, "bin/keel.cjs"), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

type Case = {
  provider: string;
  model: string;
  format: string;
  env: (url: string) => Record<string, string>;
  args?: (url: string) => string[];
};

const CASES: Case[] = [
  {
    provider: "openai",
    format: "openai",
    model: "gpt-4.1-mini",
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-e2e" }),
  },
  {
    provider: "openai-responses",
    format: "openai-responses",
    model: "gpt-5-mini",
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "sk-e2e" }),
  },
  {
    provider: "anthropic",
    format: "anthropic",
    model: "claude-sonnet-4-5",
    env: (url) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: "sk-ant-e2e" }),
  },
  // As the official SDK and Claude Code take it: the host, without /v1.
  {
    provider: "anthropic",
    format: "anthropic",
    model: "claude-haiku-4-5",
    env: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "sk-ant-e2e" }),
  },
  // A third-party plugin on @keel/provider-kit, and one declaring its provider in the manifest with no code.
  {
    provider: "acme",
    format: "openai",
    model: "acme-small",
    env: () => ({ ACME_API_KEY: "sk-acme" }),
    args: (url) => [
      "--plugin",
      outsideTheRepo("examples/compatible-provider"),
      "--settings",
      JSON.stringify({ providers: { acme: { baseUrl: `${url}/v1` } } }),
    ],
  },
  {
    provider: "bluefin",
    format: "anthropic",
    model: "bluefin-large",
    env: () => ({ BLUEFIN_API_KEY: "sk-bf" }),
    args: (url) => [
      "--plugin",
      outsideTheRepo("examples/declared-provider"),
      "--settings",
      JSON.stringify({ providers: { bluefin: { baseUrl: url } } }),
    ],
  },
  // A server defined in settings (an Ollama-like local server without a key), served by the openai plugin.
  {
    provider: "local",
    format: "openai",
    model: "qwen3:8b",
    env: () => ({}),
    args: (url) => [
      "--settings",
      JSON.stringify({
        providers: {
          local: { api: "openai", baseUrl: `${url}/v1`, models: [{ id: "qwen3:8b", contextWindow: 40960 }] },
        },
      }),
    ],
  },
];

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
    it(`runs a tool call and prints the final answer over ${c.provider} ${c.model} (${c.format} format)`, async () => {
      const workspace = join(root, c.model, "workspace");
      const home = join(root, c.model, "home");
      mkdirSync(workspace, { recursive: true });
      mkdirSync(home, { recursive: true });
      writeFileSync(join(workspace, "hello.txt"), "the secret word is pelican\n");
      const first = llm.requests.length;
      llm.push(
        {
          reply: {
            text: "Let me read it.",
            toolCalls: [{ id: "call_e2e_1", name: "read", arguments: { path: "hello.txt" } }],
          },
        },
        { reply: { text: "The file says the secret word is pelican." } },
      );

      // The distribution brings the provider, tools-fs and ops-local plugins.
      const run = await runKeel(
        ["-p", "What does hello.txt say?", "--provider", c.provider, "--model", c.model, ...(c.args?.(llm.url) ?? [])],
        { KEEL_HOME: home, ...c.env(llm.url) },
        workspace,
      );

      // A settings-defined provider is served by the plugin whose manifest names its API: no warning.
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("The file says the secret word is pelican.");
      const requests = llm.requests.slice(first);
      expect(requests.map((r) => r.format)).toEqual([c.format, c.format]);
      expect(requests[0]!.path).toMatch(/^\/v1\//);
      // The second request carries the tool's output back in this format.
      expect(JSON.stringify(requests[1]!.body)).toContain("the secret word is pelican");
      expect(JSON.stringify(requests[1]!.body)).toContain("call_e2e_1");
    });
  }
});

describe("--thinking through the binary", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(async () => {
    await llm.close();
  });

  it("asks Anthropic for the budget of the level, and refuses a level that does not exist", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "keel-e2e-thinking-"));
    const env = { KEEL_HOME: join(workspace, ".home"), ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "sk-ant-e2e" };
    llm.push({ reply: { thinking: "Short.", text: "Thought about it." } });
    const run = await runKeel(
      ["-p", "Think first.", "--provider", "anthropic", "--thinking", "medium"],
      env,
      workspace,
    );
    expect(run.stdout).toContain("Thought about it.");
    expect(llm.requests.at(-1)!.body.thinking).toEqual({ type: "enabled", budget_tokens: 10_000 });
    const bad = await runKeel(["-p", "x", "--provider", "anthropic", "--thinking", "max"], env, workspace);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(
      /--thinking <level>' argument 'max' is invalid. Allowed choices are off, minimal, low, medium, high/,
    );
  });
});
