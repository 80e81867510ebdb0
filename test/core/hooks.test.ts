import { afterEach, describe, expect, it } from "vitest";
import {
  definePlugin,
  STAGE_OBSERVE,
  STAGE_POLICY,
  textOf,
  type EventPayloads,
  type PluginRef,
} from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { EventBus, HookBus } from "@keel/kernel";
import { filesTool } from "../support/loop-helpers.ts";

const a: PluginRef = { name: "plugin-a", version: "1.0.0" };
const b: PluginRef = { name: "plugin-b", version: "2.0.0" };

function hookBus() {
  const failures: string[] = [];
  const hooks = new HookBus((f) => failures.push(`${f.owner.name}@${f.owner.version} ${f.hook}: ${f.message}`));
  return { hooks, failures };
}

describe("hooks", () => {
  it("runs handlers by stage, then registration order, with `before` moving one ahead", async () => {
    const { hooks } = hookBus();
    const order: string[] = [];
    const add = (name: string, stage?: number, before?: string) =>
      hooks.tap(a, "system_prompt", { name, stage, before }, (value: string) => {
        order.push(name);
        return value + name;
      });
    add("observe", STAGE_OBSERVE);
    add("plain");
    add("policy", STAGE_POLICY);
    add("early", undefined, "plain");
    const out = await hooks.transform("system_prompt", "", {
      cwd: "/",
      model: { id: "m", provider: "p", contextWindow: 1, maxOutput: 1 },
      toolNames: [],
    });
    expect(order).toEqual(["policy", "early", "plain", "observe"]);
    expect(out).toBe("policyearlyplainobserve");
  });

  it("blocks when a guard throws, naming the guard", async () => {
    const { hooks, failures } = hookBus();
    hooks.tap(a, "tool_call", {}, () => {
      throw new Error("policy file missing");
    });
    const outcome = await hooks.guard("tool_call", { toolCallId: "1", toolName: "bash", input: {}, readOnly: false });
    expect(outcome).toEqual({
      blocked: true,
      reason: 'blocked because the guard "plugin-a" failed (policy file missing)',
      by: "plugin-a",
    });
    expect(failures).toEqual(["plugin-a@1.0.0 tool_call: policy file missing"]);
  });

  it("blocks when a guard times out, and aborts its signal", async () => {
    const { hooks, failures } = hookBus();
    let sawAbort = false;
    hooks.tap(
      a,
      "tool_call",
      { timeoutMs: 20 },
      (_e, ctx) => new Promise(() => ctx.signal.addEventListener("abort", () => (sawAbort = true))),
    );
    const outcome = await hooks.guard("tool_call", { toolCallId: "1", toolName: "bash", input: {}, readOnly: false });
    expect(outcome.blocked).toBe(true);
    expect(failures[0]).toMatch(/timed out after 20 ms/);
    expect(sawAbort).toBe(true);
  });

  it("gives each handler a signal that follows the run's, whenever the handler first reads it", async () => {
    const { hooks } = hookBus();
    const run = new AbortController();
    const seen: string[] = [];
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    // One reads its signal at once and waits for the abort; the other reads it only after the run aborted.
    hooks.tap(a, "tool_call", {}, (_e, ctx) => {
      ctx.signal.addEventListener("abort", () => seen.push(`early: ${String(ctx.signal.reason)}`));
      release();
      return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(undefined)));
    });
    hooks.tap(b, "tool_call", {}, (_e, ctx) => void seen.push(`late: ${ctx.signal.aborted}`));
    const view = hooks.forAgent("helper");
    hooks.tap(a, "system_prompt", {}, (value: string, _info, ctx) => `${value}${ctx.agent}:${ctx.signal.aborted}`);
    const outcome = hooks.guard(
      "tool_call",
      { toolCallId: "1", toolName: "bash", input: {}, readOnly: false },
      run.signal,
    );
    await waiting;
    run.abort("stop");
    expect((await outcome).blocked).toBe(false);
    expect(seen).toEqual(["early: stop", "late: true"]);
    const model = { id: "m", provider: "p", contextWindow: 1, maxOutput: 1 };
    expect(await view.transform("system_prompt", "", { cwd: "/", model, toolNames: [] }, run.signal)).toBe(
      "helper:true",
    );
  });

  it("stops at the first block and lets earlier guards rewrite the input", async () => {
    const { hooks } = hookBus();
    const seen: unknown[] = [];
    hooks.tap(a, "tool_call", { stage: STAGE_POLICY }, () => ({ rewrite: { input: { command: "ls -la" } } }));
    hooks.tap(b, "tool_call", {}, (e) => void seen.push(e.input));
    const outcome = await hooks.guard("tool_call", {
      toolCallId: "1",
      toolName: "bash",
      input: { command: "ls" },
      readOnly: false,
    });
    expect(outcome).toEqual({
      blocked: false,
      event: { toolCallId: "1", toolName: "bash", input: { command: "ls -la" }, readOnly: false },
    });
    expect(seen).toEqual([{ command: "ls -la" }]);
  });

  it("skips a transform that throws, keeps the value, and reports it", async () => {
    const { hooks, failures } = hookBus();
    hooks.tap(a, "system_prompt", {}, (v: string) => v + " A");
    hooks.tap(b, "system_prompt", {}, () => {
      throw new Error("template broken");
    });
    hooks.tap(a, "system_prompt", { name: "last" }, (v: string) => v + " C");
    const out = await hooks.transform("system_prompt", "base", {
      cwd: "/",
      model: { id: "m", provider: "p", contextWindow: 1, maxOutput: 1 },
      toolNames: [],
    });
    expect(out).toBe("base A C");
    expect(failures).toEqual(["plugin-b@2.0.0 system_prompt: template broken"]);
  });

  it("answers a provide hook with the first defined answer", async () => {
    const { hooks } = hookBus();
    hooks.tap(a, "stop", {}, () => undefined);
    hooks.tap(b, "stop", {}, () => ({ continueWith: "keep going" }));
    hooks.tap(a, "stop", { name: "late" }, () => ({ continueWith: "never" }));
    const answer = await hooks.provide("stop", { message: {} as never, continuations: 0 });
    expect(answer).toEqual({ continueWith: "keep going" });
  });

  it("removes a handler when its unsubscribe is called", async () => {
    const { hooks } = hookBus();
    const off = hooks.tap(a, "tool_call", {}, () => ({ block: true, reason: "no" }));
    off();
    expect(
      (await hooks.guard("tool_call", { toolCallId: "1", toolName: "x", input: {}, readOnly: true })).blocked,
    ).toBe(false);
  });
});

describe("the event bus", () => {
  it("keeps calling other handlers when one throws, and reports the thrower by plugin", async () => {
    const bus = new EventBus();
    const errors: EventPayloads["plugin_error"][] = [];
    const seen: string[] = [];
    bus.on("plugin_error", (e) => void errors.push(e));
    bus.on("turn_start", () => void seen.push("first"), a);
    bus.on(
      "turn_start",
      () => {
        throw new Error("boom");
      },
      b,
    );
    bus.on(
      "turn_start",
      async () => {
        throw new Error("async boom");
      },
      a,
    );
    bus.on("turn_start", () => void seen.push("last"), a);
    bus.emit("turn_start", { turn: 1 });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["first", "last"]);
    expect(errors).toEqual([
      { plugin: b, phase: "event turn_start", message: "boom" },
      { plugin: a, phase: "event turn_start", message: "async boom" },
    ]);
  });

  it("unsubscribes with the function `on` returns", () => {
    const bus = new EventBus();
    let count = 0;
    const off = bus.on("turn_start", () => void count++);
    bus.emit("turn_start", { turn: 1 });
    off();
    bus.emit("turn_start", { turn: 2 });
    expect(count).toBe(1);
  });
});

describe("hooks inside a run", () => {
  let kit: TestKit | undefined;
  afterEach(async () => {
    await kit?.dispose();
    kit = undefined;
  });

  it("shows the model the reason a tool_call guard gave, and still completes the run", async () => {
    let ran = 0;
    kit = await createTestKit({
      inline: [
        filesTool({ "secret.txt": "s3cret" }, () => ran++),
        {
          name: "no-secrets",
          plugin: definePlugin({
            activate: (api) =>
              void api.hooks.tap("tool_call", { stage: STAGE_POLICY }, (e) =>
                String(e.input.path).includes("secret") ? { block: true, reason: "secrets stay closed" } : undefined,
              ),
          }),
        },
      ],
      script: [{ toolCalls: [{ name: "read", arguments: { path: "secret.txt" } }] }, { text: "I may not read it." }],
    });
    const result = await kit.run("read the secret");
    expect(ran).toBe(0);
    expect(textOf(kit.toolResults()[0]!)).toBe("Blocked by no-secrets: secrets stay closed");
    expect(kit.eventsOf("guard_blocked")).toEqual([
      {
        hook: "tool_call",
        by: "no-secrets",
        reason: "secrets stay closed",
        subject: expect.objectContaining({ toolName: "read", input: { path: "secret.txt" } }),
      },
    ]);
    expect(result.reason).toBe("stop");
  });

  it("runs a tool with the input a guard rewrote", async () => {
    kit = await createTestKit({
      inline: [
        filesTool({ "b.txt": "B" }),
        {
          name: "redirect",
          plugin: definePlugin({
            activate: (api) => void api.hooks.tap("tool_call", () => ({ rewrite: { input: { path: "b.txt" } } })),
          }),
        },
      ],
      script: [{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(textOf(kit.toolResults()[0]!)).toBe("B");
  });

  it("lets a context transform change what the model sees but not the history", async () => {
    let seen: string[] = [];
    kit = await createTestKit({
      inline: [
        {
          name: "ctx",
          plugin: definePlugin({
            activate(api) {
              api.hooks.tap("context", (messages) => [
                ...messages,
                { role: "user", content: "(injected)", timestamp: 0 },
              ]);
              api.hooks.tap("provider_request", { stage: STAGE_OBSERVE }, (p) => p);
            },
          }),
        },
        {
          name: "spy",
          plugin: definePlugin({
            activate: (api) =>
              void api.hooks.tap("context", { stage: STAGE_OBSERVE }, (m) => ((seen = m.map((x) => textOf(x))), m)),
          }),
        },
      ],
      script: [{ text: "ok" }],
    });
    await kit.run("hello");
    expect(seen).toEqual(["hello", "(injected)"]);
    expect(kit.runtime.messages.map((m) => textOf(m))).toEqual(["hello", "ok"]);
  });

  it("continues once when a stop handler asks for one more turn", async () => {
    let asked = 0;
    kit = await createTestKit({
      inline: [
        {
          name: "nag",
          plugin: definePlugin({
            activate: (api) =>
              void api.hooks.tap("stop", (r) =>
                r.continuations === 0 ? (asked++, { continueWith: "Did you run the tests?" }) : undefined,
              ),
          }),
        },
      ],
      script: [{ text: "Done." }, { text: "Yes, they pass." }],
    });
    const result = await kit.run("fix it");
    expect(asked).toBe(1);
    expect(result.finalText).toBe("Yes, they pass.");
  });
});
