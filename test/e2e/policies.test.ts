/**
 * Policies that cannot be switched off, through the real binary: a required plugin that cannot run stops keel
 * before any model request, naming it; the managed settings layer is above the user, the project and the
 * command line, and nothing below undoes it.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { writePlugin } from "../support/plugin-fixtures.ts";

const POLICY = "@acme/keel-team-policy";
const GOOD_SOURCE = `import { definePlugin, z } from "@keel/extensions-api";
export default definePlugin({ settings: z.object({ level: z.number().default(1) }).default({ level: 1 }),
  activate(api) { api.hooks.tap("tool_call", () => undefined); } });`;

function installPolicy(env: KeelEnv, source = GOOD_SOURCE): void {
  writePlugin(join(env.home, "plugins"), { name: POLICY, keel: { contributes: { hooks: ["tool_call"] } }, source });
}

function writeJson(path: string, value: unknown): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const userSettings = (env: KeelEnv, value: unknown) => writeJson(join(env.home, "settings.json"), value);

describe("required plugins", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(() => llm.close());

  /** `keel -p hi` over the mock server; resolves the run and how many requests reached it. */
  async function ask(env: KeelEnv, args: string[] = [], extraEnv: Record<string, string> = {}) {
    const before = llm.requests.length;
    const run = await runKeel(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini", ...args], env, {
      extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-user", ...extraEnv },
    });
    return { ...run, requests: llm.requests.length - before };
  }

  function expectStopped(run: { code: number | null; stderr: string; requests: number }, why: RegExp): void {
    expect(run.code).toBe(2);
    expect(run.requests).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(`Required plugin cannot run, so keel stops: ${POLICY.replace("/", "\\/")}: `),
    );
    expect(run.stderr).toMatch(why);
  }

  it("runs when the required plugin is active", async () => {
    const env = keelEnv();
    installPolicy(env);
    userSettings(env, { plugins: { required: [POLICY] } });
    llm.push({ reply: { text: "answered" } });
    const run = await ask(env);
    expect(run).toMatchObject({ code: 0, stdout: "answered\n", requests: 1 });
  });

  it("stops when it fails to load", async () => {
    const env = keelEnv();
    installPolicy(env, `throw new Error("the policy's build is broken");`);
    userSettings(env, { plugins: { required: [POLICY] } });
    expectStopped(await ask(env), /the policy's build is broken/);
  });

  it("stops when its settings section is invalid", async () => {
    const env = keelEnv();
    installPolicy(env);
    userSettings(env, { plugins: { required: [POLICY] }, "keel-team-policy": { level: "high" } });
    expectStopped(await ask(env), /invalid settings: "keel-team-policy.level"/);
  });

  it("stops when a trusted project disables it", async () => {
    const env = keelEnv();
    installPolicy(env);
    userSettings(env, { plugins: { required: [POLICY] } });
    writeJson(join(env.cwd, ".keel", "settings.json"), { plugins: { disabled: [POLICY] } });
    expectStopped(await ask(env, ["--trust"]), /disabled in settings \(plugins\.disabled\)/);
  });

  it("stops under --safe-mode", async () => {
    const env = keelEnv();
    installPolicy(env);
    userSettings(env, { plugins: { required: [POLICY] } });
    expectStopped(await ask(env, ["--safe-mode"]), /--safe-mode loads only the distribution's own plugins/);
  });

  it("stops when a requirement of the managed layer is not installed, whatever the command line says", async () => {
    const env = keelEnv();
    const managed = writeJson(join(env.home, "..", "etc", "managed-settings.json"), {
      plugins: { required: [POLICY] },
    });
    const run = await ask(env, ["--settings", '{"plugins":{"required":[]}}'], { KEEL_MANAGED_SETTINGS: managed });
    expectStopped(run, /it is not installed/);
  });
});

describe("the managed settings layer", () => {
  function managedFile(env: KeelEnv, value: unknown): Record<string, string> {
    return { KEEL_MANAGED_SETTINGS: writeJson(join(env.home, "..", "etc", "managed-settings.json"), value) };
  }

  const stateOf = async (env: KeelEnv, extraEnv: Record<string, string>, args: string[] = []) => {
    const run = await runKeel(["plugins", "--json", ...args], env, { extraEnv });
    const plugins = JSON.parse(run.stdout) as { name: string; state: string; reason?: string }[];
    return {
      run,
      policy: plugins.find((p) => p.name === POLICY),
      distribution: plugins.filter((p) => p.name.startsWith("@keel/")),
    };
  };

  it("keeps its deny rules whatever the user and the command line say", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch made-by-bash" } }] }, { text: "done" }],
    });
    userSettings(env, { permissions: { mode: "full", deny: [] } });
    const extraEnv = managedFile(env, { permissions: { deny: ["bash(touch *)"] } });
    const run = await runKeel(
      ["-p", "make it", ...SCRIPTED, "--settings", '{"permissions":{"mode":"full","deny":[]}}', "--mode", "json"],
      env,
      { extraEnv },
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(env.cwd, "made-by-bash"))).toBe(false);
    expect(run.stdout).toMatch(/"type":"guard_blocked"/);
  });

  it("blocks a plugin, and a lower layer's plugins.blocked is ignored with a warning", async () => {
    const env = keelEnv();
    installPolicy(env);
    const extraEnv = managedFile(env, { plugins: { blocked: [POLICY] } });
    const { run, policy } = await stateOf(env, extraEnv, ["--settings", '{"plugins":{"blocked":[]}}']);
    expect(policy).toMatchObject({
      state: "disabled",
      reason: expect.stringContaining("blocked by the managed settings"),
    });
    expect(run.stderr).toContain('Setting "plugins.blocked" is read only from the managed settings');
  });

  it("loads only the plugins it allows from outside the distribution", async () => {
    const env = keelEnv();
    installPolicy(env);
    const { policy, distribution } = await stateOf(env, managedFile(env, { plugins: { allowed: ["@acme/other"] } }));
    expect(policy).toMatchObject({ state: "disabled", reason: expect.stringContaining("not in plugins.allowed") });
    expect(distribution.every((p) => p.state !== "disabled")).toBe(true);
  });

  it("loosens nothing when it is invalid: only the distribution's plugins load", async () => {
    const env = keelEnv();
    installPolicy(env);
    const { run, policy } = await stateOf(env, managedFile(env, { plugins: { blocked: "everything" } }));
    expect(run.stderr).toMatch(/The managed settings .* are invalid/);
    expect(policy?.state).toBe("disabled");
  });
});
