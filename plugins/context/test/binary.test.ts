/**
 * The context plugin in the real binary with the default distribution: the first request to a mock OpenAI
 * server carries the project's AGENTS.md and the skill list, and the default prompt stays under 1 KB.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());

const systemOf = (body: { messages: { role: string; content: unknown }[] }) =>
  body.messages.find((m) => m.role === "system")!.content as string;

async function firstRequest(files: Record<string, string>) {
  const env = keelEnv({ files });
  mkdirSync(join(env.cwd, ".git"));
  writeFileSync(join(env.cwd, ".git/HEAD"), "ref: refs/heads/main\n");
  const before = llm.requests.length;
  llm.push({ reply: { text: "ok" } });
  const run = await runKeel(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini"], env, {
    extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" },
    timeoutMs: 60_000,
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return { env, body: llm.requests[before]!.body };
}

it("sends a default prompt under 1 KB with the session's facts", async () => {
  const { env, body } = await firstRequest({});
  const system = systemOf(body);
  expect(system).toMatch(/^You are keel, a coding agent/);
  expect(system).toContain(`Folder: ${env.cwd}. Platform: ${process.platform}. Git branch: main.`);
  expect(system).toContain("- Read a file before you edit it; edit needs its exact text.");
  expect(Buffer.byteLength(system)).toBeLessThan(1024);
});

it("adds the project's AGENTS.md and its skills by name and description", async () => {
  const { body } = await firstRequest({
    "AGENTS.md": "Run `npm test` before you say you are done.",
    ".agents/skills/changelog/SKILL.md":
      "---\nname: changelog\ndescription: Write the changelog entry.\n---\nSECRET STEPS\n",
  });
  const system = systemOf(body);
  expect(system).toContain("AGENTS.md:\nRun `npm test` before you say you are done.");
  expect(system).toContain("- changelog: Write the changelog entry. (.agents/skills/changelog/SKILL.md)");
  expect(system).not.toContain("SECRET STEPS");
});

it("prints the answer to a /template or /skill: line in -p, like a prompt's", async () => {
  const env = keelEnv({
    files: {
      ".keel/prompts/greet.md": "---\ndescription: Greets.\n---\nSay hello to $1.\n",
      ".agents/skills/changelog/SKILL.md":
        "---\nname: changelog\ndescription: Write the changelog entry.\n---\nSteps\n",
    },
    script: [{ text: "Hello, Ada!" }],
  });
  const template = await runKeel(["-p", "/greet Ada", ...SCRIPTED], env);
  expect(template.code, template.stderr).toBe(0);
  expect(template.stdout).toBe("Hello, Ada!\n");
  writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([{ text: "Entry written." }]));
  const skill = await runKeel(["-p", "/skill:changelog for 1.2", ...SCRIPTED], env);
  expect(skill.code, skill.stderr).toBe(0);
  expect(skill.stdout).toBe("Entry written.\n");
});
