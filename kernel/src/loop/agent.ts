/**
 * The agent loop (ReAct): stream a reply, run its tool calls, feed the results back, repeat until the model
 * stops calling tools — with steering and follow-up queues, abort, a valid history, and guards against a
 * model that keeps failing. Everything it talks to (provider, tools, hooks) comes in through `AgentDeps`.
 */
import { randomUUID } from "@keel/extensions-api/random-id";
import { setMaxListeners } from "node:events";
import {
  emptyUsage,
  textOf,
  toolCallsOf,
  userMessage,
  type AssistantMessage,
  type Message,
  type ModelInfo,
  type Provider,
  type RunEndReason,
  type RunResult,
  type ThinkingLevel,
  type ToolCall,
  type ToolContext,
  type ToolResult,
  type ToolResultMessage,
  type UserContent,
} from "@keel/extensions-api";
import { estimateTokens } from "@keel/extensions-api/compaction";
import type { EventBus } from "../bus/event-bus.js";
import { errorText } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";
import { Compactor, type CompactionSettings } from "./compactor.js";
import { HistoryIndex } from "./history.js";
import { requestOptions, streamReply } from "./stream-reply.js";
import { toolJsonSchema, withUniqueCallIds, type ActiveTool } from "./tool-calls.js";
import { runSingleCall, runToolCalls, type ToolRunnerDeps } from "./tool-runner.js";
import type { ToolFault } from "./tool-result.js";
import { TokenEstimator } from "./token-estimate.js";
import { trace } from "../trace.js";

export interface LoopLimits {
  /** Requests per run; undefined for no limit. */
  maxSteps?: number;
  /** Consecutive replies whose every tool call was malformed before the run ends. */
  maxMalformedSteps: number;
  /** How many times `stop` handlers may continue one run. */
  maxStopContinuations: number;
  /** A tool call's deadline when neither `toolTimeouts` nor the tool's own `timeoutMs` sets one. */
  toolTimeoutMs: number;
  /** Deadlines by tool name, over the tools' own. */
  toolTimeouts: Record<string, number>;
}

export interface AgentDeps {
  bus: EventBus;
  hooks: HookBus;
  /** The provider and model for the next request; throws with an actionable message when there is none. */
  model(): Promise<{ provider: Provider; model: ModelInfo }>;
  tools(): ReadonlyMap<string, ActiveTool>;
  systemPrompt(model: ModelInfo, toolNames: string[]): Promise<string>;
  toolContext(call: ToolCall, signal: AbortSignal, update: (partial: ToolResult) => void): ToolContext;
  /** A tool broke its contract or missed its deadline. */
  toolFault: ToolFault;
  /** Resolves when tools can run (the operations backend is up); awaited only before the first tool call. */
  toolsReady(): Promise<void>;
  sessionId(): string;
  /** The thinking level for the next request (the runtime's); `off` or undefined asks for nothing. */
  thinking(): ThinkingLevel | undefined;
  limits: LoopLimits;
  compaction: CompactionSettings;
  /** A compaction replaced the history (after its `compaction_end`). */
  historyCompacted?(): void;
}

type Input = string | UserContent[];

export class Agent {
  private history: Message[] = [];
  private readonly steering: Input[] = [];
  private readonly followUps: Input[] = [];
  private controller: AbortController | undefined;
  private idle: Promise<void> = Promise.resolve();
  private readonly estimator = new TokenEstimator();
  private readonly index = new HistoryIndex();
  readonly compactor: Compactor;

  constructor(private readonly deps: AgentDeps) {
    this.compactor = new Compactor({
      bus: deps.bus,
      hooks: deps.hooks,
      estimator: this.estimator,
      settings: deps.compaction,
      view: () => this.index.view(this.history),
      setMessages: (messages) => (this.history = messages),
      compacted: () => deps.historyCompacted?.(),
    });
  }

  get messages(): readonly Message[] {
    return this.history;
  }

  get isRunning(): boolean {
    return this.controller !== undefined;
  }

  replaceMessages(messages: Message[]): void {
    if (this.isRunning)
      throw new Error("Cannot replace the history while a run is going; abort it or wait for it to end.");
    for (const message of messages) deepFreeze(message);
    this.history = [...messages];
  }

  steer(content: Input): void {
    this.steering.push(content);
  }

  followUp(content: Input): void {
    this.followUps.push(content);
  }

  abort(): void {
    // What was queued for this run goes with it: it would otherwise enter the next run after its prompt.
    this.steering.length = 0;
    this.followUps.length = 0;
    this.controller?.abort(new Error("Aborted by the user."));
  }

  waitForIdle(): Promise<void> {
    return this.idle;
  }

  /** Compacts on request (`/compact`), outside a run. */
  async compactNow(instructions?: string): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    if (this.isRunning) throw new Error("Cannot compact while a run is going; wait for it to end.");
    const { model } = await this.deps.model();
    return this.compactor.compact("manual", model, new AbortController().signal, instructions);
  }

  /** Runs until the model stops. Rejects only when a run is already going. */
  async run(prompt: Input): Promise<RunResult> {
    if (this.isRunning) throw new Error("A run is already going: steer it, queue a follow-up, or abort it first.");
    const controller = new AbortController();
    // Every running tool call listens on the run's signal (one listener each); twenty parallel ones are fine.
    setMaxListeners(0, controller.signal);
    this.controller = controller;
    let release!: () => void;
    this.idle = new Promise((resolve) => (release = resolve));
    const added: Message[] = [];
    const runId = randomUUID();
    const { bus, hooks } = this.deps;
    bus.emit("agent_start", { runId });

    let reason: RunEndReason = "stop";
    let errorMessage: string | undefined;
    try {
      ({ reason, errorMessage } = await this.loop(prompt, controller.signal, added));
    } catch (error) {
      reason = controller.signal.aborted ? "aborted" : "error";
      errorMessage = errorText(error);
    } finally {
      this.controller = undefined;
    }
    const end = { runId, reason, messages: added, errorMessage };
    bus.emit("agent_end", end);
    await hooks.lifecycle("agent_end", end);
    release();
    const last = [...added].reverse().find((m): m is AssistantMessage => m.role === "assistant");
    return { reason, messages: added, finalText: last ? textOf(last) : "", errorMessage };
  }

  private push(message: Message, added: Message[], announced = false): void {
    // History is shared by reference with every provider, observer and store; frozen, a plugin that tries to
    // change it fails at once instead of silently rewriting the conversation.
    deepFreeze(message);
    if (!announced) this.deps.bus.emit("message_start", { message });
    this.history.push(message);
    added.push(message);
    this.deps.bus.emit("message_end", { message });
  }

  /** Runs the `input` guard; a blocked message is dropped with a notice. */
  private async accept(
    content: Input,
    source: "prompt" | "steer" | "follow_up",
    signal: AbortSignal,
    added: Message[],
  ): Promise<{ blocked?: string }> {
    const outcome = await this.deps.hooks.guard("input", { content, source }, signal);
    if (outcome.blocked) return { blocked: `Input blocked by ${outcome.by}: ${outcome.reason}` };
    this.push(userMessage(outcome.event.content), added);
    return {};
  }

  private async loop(
    prompt: Input,
    signal: AbortSignal,
    added: Message[],
  ): Promise<{ reason: RunEndReason; errorMessage?: string }> {
    const { bus, limits } = this.deps;
    const first = await this.accept(prompt, "prompt", signal, added);
    if (first.blocked) return { reason: "error", errorMessage: first.blocked };

    let steps = 0;
    let malformed = 0;
    let continuations = 0;
    for (;;) {
      let wantsMore = true;
      while (wantsMore || this.steering.length > 0) {
        if (signal.aborted) return { reason: "aborted", errorMessage: "Aborted by the user." };
        if (limits.maxSteps !== undefined && steps >= limits.maxSteps)
          return { reason: "max_steps", errorMessage: `Stopped after ${steps} requests (the maxSteps limit).` };
        steps++;
        const turn = steps;
        bus.emit("turn_start", { turn });
        for (const queued of this.steering.splice(0)) await this.accept(queued, "steer", signal, added);

        const reply = await this.request(turn, signal, added);
        if (reply.stopReason === "error" || reply.stopReason === "aborted") {
          bus.emit("turn_end", { turn, message: reply, toolResults: [] });
          return { reason: reply.stopReason === "aborted" ? "aborted" : "error", errorMessage: reply.errorMessage };
        }

        if (toolCallsOf(reply).length > 0) await this.deps.toolsReady();
        const outcome = await runToolCalls(reply, this.runnerDeps(), signal);
        for (const result of outcome.results) this.push(result, added);
        bus.emit("turn_end", { turn, message: reply, toolResults: outcome.results });

        if (signal.aborted) return { reason: "aborted", errorMessage: "Aborted by the user." };
        malformed = outcome.allMalformed ? malformed + 1 : 0;
        if (malformed >= limits.maxMalformedSteps) {
          return {
            reason: "malformed_limit",
            errorMessage:
              `Stopped: the model's last ${malformed} replies contained only malformed ` +
              `tool calls (see the tool results for what was wrong).`,
          };
        }
        // A paused turn continues from the history as it is: the next request carries the partial reply.
        wantsMore = toolCallsOf(reply).length > 0 || reply.stopReason === "pause_turn";
      }

      const last = this.history[this.history.length - 1];
      if (continuations < limits.maxStopContinuations && last?.role === "assistant") {
        const answer = await this.deps.hooks.provide("stop", { message: last, continuations }, signal);
        if (answer?.continueWith) {
          continuations++;
          await this.accept(answer.continueWith, "follow_up", signal, added);
          continue;
        }
      }
      if (this.followUps.length > 0) {
        for (const queued of this.followUps.splice(0)) await this.accept(queued, "follow_up", signal, added);
        continue;
      }
      return { reason: "stop" };
    }
  }

  /** Runs one call as the model's calls run (guards, the tool, `tool_result`); nothing enters the history. */
  async runTool(call: ToolCall, signal: AbortSignal): Promise<ToolResultMessage> {
    await this.deps.toolsReady();
    return runSingleCall(call, this.runnerDeps(), signal);
  }

  private runnerDeps(): ToolRunnerDeps {
    const { bus, hooks, limits } = this.deps;
    return {
      bus,
      hooks,
      tools: this.deps.tools(),
      context: this.deps.toolContext,
      deadlineMs: (t) => limits.toolTimeouts[t.name] ?? t.tool.timeoutMs ?? limits.toolTimeoutMs,
      fault: this.deps.toolFault,
    };
  }

  /** One request: compaction check, context hooks, streaming, one retry after a context overflow. */
  private async request(turn: number, signal: AbortSignal, added: Message[]): Promise<AssistantMessage> {
    let target: { provider: Provider; model: ModelInfo };
    try {
      target = await this.deps.model();
    } catch (error) {
      const reply = failedReply(errorText(error));
      this.push(reply, added);
      return reply;
    }
    const { provider, model } = target;
    if (this.compactor.needed(model)) await this.compactor.compact("threshold", model, signal);
    let reply = await this.streamOnce(provider, model, turn, signal);
    if (reply.stopReason === "error" && reply.errorKind === "context_overflow" && this.deps.hooks.has("compact")) {
      this.push(reply, added, true);
      if (!(await this.compactor.compact("overflow", model, signal))) return reply;
      reply = await this.streamOnce(provider, model, turn, signal);
    }
    const unique = withUniqueCallIds(reply, this.index.callIds(this.history));
    reply = await this.deps.hooks.transform("message_end", unique, { turn }, signal);
    this.push(reply, added, true);
    return reply;
  }

  private async streamOnce(
    provider: Provider,
    model: ModelInfo,
    turn: number,
    signal: AbortSignal,
  ): Promise<AssistantMessage> {
    const { bus, hooks } = this.deps;
    const tools = [...this.deps.tools().values()].filter((t) => t.tool.offered?.() ?? true);
    const names = tools.map((t) => t.name);
    const systemPrompt = await this.deps.systemPrompt(model, names);
    // Context handlers get a copy they may change freely; without any, the view itself is sent (nothing mutates it).
    const view = this.index.view(this.history);
    const context = hooks.has("context")
      ? await hooks.transform("context", structuredClone(view), { turn, model }, signal)
      : view;
    const specs = tools.map((t) => ({
      name: t.name,
      description: t.tool.description,
      parameters: toolJsonSchema(t.tool),
    }));
    trace(`request ${turn}`);
    const level = this.deps.thinking();
    const reasoning = level === undefined || level === "off" ? undefined : level;
    const request = {
      model,
      systemPrompt,
      messages: context,
      tools: specs,
      maxTokens: model.maxOutput,
      sessionId: this.deps.sessionId(),
      reasoning,
    };
    const reply = await streamReply(
      provider,
      request,
      requestOptions(provider, model, signal, hooks, bus, reasoning),
      bus,
    );
    this.estimator.observe(context, reply, estimateTokens({ role: "user", content: systemPrompt, timestamp: 0 }));
    return reply;
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

function failedReply(errorMessage: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason: "error",
    errorMessage,
    usage: emptyUsage(),
    provider: "none",
    model: "none",
    timestamp: Date.now(),
  };
}
