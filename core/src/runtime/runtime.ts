/**
 * The runtime: one session of the agent with its plugins. It wires the kernel (bus, hooks, loop) to what the
 * host loaded, and is what modes, commands and plugins drive through the `Runtime` interface.
 */
import {
  type AssistantMessage,
  type CommandArgument,
  type EventSubscriber,
  type ModelInfo,
  type Message,
  type PluginEntry,
  type PluginInfo,
  type ReplaceOptions,
  type SessionEndReason,
  type Runtime,
  type RunResult,
  type SubagentRequest,
  type SubagentResult,
  type SessionStore,
  type ThinkingLevel,
  type UiContributions,
  type UiRequest,
  type UiResponse,
  type UserContent,
} from "@keel/extensions-api";
import { randomHex } from "@keel/extensions-api/random-id";
import { trace, type Agent, type EventBus, type HookBus } from "@keel/kernel";
import type { PluginHost } from "../host/plugin-host.js";
import type { Contributions } from "../host/registries.js";
import type { CoreSettings } from "../settings/core-settings.js";
import type { SettingLayers, SettingsObject } from "../settings/layers.js";
import type { ProjectTrust } from "../trust/decide.js";
import { keepingTrust } from "../trust/keep-trust.js";
import { TrustStore } from "../trust/trust-store.js";
import type { Distribution } from "./read-distribution.js";
import { listCommands, listTools } from "./listings.js";
import { callContext, sessionAgent, sharedLoop } from "./session-loop.js";
import { sideRequest, type SideRequest } from "./side-request.js";
import { settingLayers, start, type RuntimeOptions, type Starting } from "./start.js";
import { runSubagent } from "./subagent.js";
import { uiContributions } from "./ui-contributions.js";
import { appInfo, wire, type Wiring } from "./wiring.js";

export type { Distribution, RuntimeOptions };

export class KeelRuntime implements Runtime {
  readonly bus: EventBus;
  readonly hooks: HookBus;
  readonly contributions: Contributions;
  readonly host: PluginHost;
  readonly cwd: string;
  readonly keelHome: string;
  readonly flags: Record<string, unknown>;
  readonly events: EventSubscriber;
  readonly app: { command: string; version: string; readonly locked: readonly string[] };
  /** Settings problems found while loading, for the CLI to print. */
  readonly warnings: string[];
  /** The project folder's trust, decided while the runtime is created. */
  trust: ProjectTrust | undefined;
  private sessionStarted = false;
  private shuttingDown: Promise<void> | undefined;
  private agent!: Agent;
  private readonly w: Wiring;

  private constructor(options: RuntimeOptions, layers: SettingLayers) {
    this.cwd = options.cwd;
    this.keelHome = options.keelHome;
    this.flags = { ...options.flags };
    this.app = appInfo(options.distribution, () => this.w.view.lockedKeys);
    this.warnings = layers.warnings;
    this.w = wire(options, layers, {
      runtime: () => (this.sessionStarted ? this : undefined),
      agent: () => this.agent,
      projectTrusted: () => this.trust?.trusted === true,
      flags: this.flags,
    });
    ({
      bus: this.bus,
      hooks: this.hooks,
      contributions: this.contributions,
      host: this.host,
      events: this.events,
    } = this.w);
  }

  /** Settles the settings once the project's trust is known, and builds the loop on them. */
  private settle(trust: ProjectTrust): void {
    this.trust = trust;
    this.w.view.settle(trust);
    // Before plugins activate, so every process the session starts inherits them (Claude Code's `env`).
    Object.assign(process.env, this.core.env);
    this.agent = sessionAgent(this.w);
  }

  /** What the managed layer lets be installed, and what every layer requires (for the plugin installer). */
  get installPolicy() {
    return this.w.view.installPolicy;
  }

  /** The settings keys (dotted) the distribution locks against every layer below the managed one. */
  get lockedKeys(): readonly string[] {
    return this.w.view.lockedKeys;
  }

  /**
   * Runs `change`, which writes the project's configuration, and keeps the folder trusted when it was
   * (`trust/keep-trust.ts`): keel's own change, asked for by the user in a folder they trust.
   */
  changeProjectConfig<T>(change: () => T | Promise<T>): Promise<T> {
    if (!this.trust) throw new Error("the project's trust is decided while the runtime is created");
    return keepingTrust(this.trust, new TrustStore(this.keelHome), this.warnings, change);
  }

  /** The merged settings in effect. */
  get settings(): SettingsObject {
    return this.w.view.settings;
  }

  /** The kernel's own keys of the settings in effect. */
  get core(): CoreSettings {
    return this.w.view.core;
  }

  /** Builds and starts the runtime (`start.ts`); `beforeLoad` sees it before any plugin is loaded. */
  static async create(options: RuntimeOptions, beforeLoad?: (runtime: KeelRuntime) => void): Promise<KeelRuntime> {
    const layers = settingLayers(options);
    const runtime = new KeelRuntime(options, layers);
    beforeLoad?.(runtime);
    await start(runtime.starting(), options, layers);
    return runtime;
  }

  private starting(): Starting {
    return {
      host: this.host,
      hooks: this.hooks,
      warnings: this.warnings,
      pluginPolicy: () => this.w.view.pluginPolicy(),
      requiredPlugins: () => this.w.view.requiredPlugins(),
      settle: (trust) => (this.settle(trust), this.core),
      shutdown: () => this.shutdown(),
    };
  }

  // --- session lifecycle -------------------------------------------------------------------------------

  /** Starts the session: plugins may now use `api.runtime` (resume, background work). */
  async startSession(): Promise<void> {
    if (this.sessionStarted) return;
    this.sessionStarted = true;
    await this.pickModel();
    await this.hooks.lifecycle("session_start", { cwd: this.cwd, sessionId: this.sessionId });
    trace("session started");
    this.bus.emit("session_start", { cwd: this.cwd, sessionId: this.sessionId });
  }

  /**
   * Picks the session's model if none is yet, without asking its provider whether it is ready, so modes and
   * commands can show it; a problem (unknown provider, missing key) is left for the first run to report.
   */
  pickModel(): Promise<void> {
    return this.w.target.pick();
  }

  /**
   * Ends the session (`reason` says why, to `session_end`) and disposes every plugin. Safe to call more than
   * once: every call resolves when the first one is done (SIGTERM's handler and the ending command both call it,
   * and the first to return exits the process, which must not cut a plugin's dispose short).
   */
  shutdown(reason: SessionEndReason = "other"): Promise<void> {
    this.shuttingDown ??= this.end(reason);
    return this.shuttingDown;
  }

  private async end(reason: SessionEndReason): Promise<void> {
    if (this.agent.isRunning) {
      this.agent.abort();
      await this.agent.waitForIdle();
    }
    if (this.sessionStarted) {
      this.sessionStarted = false;
      await this.hooks.lifecycle("session_end", { cwd: this.cwd, sessionId: this.sessionId, reason });
      this.bus.emit("session_end", { cwd: this.cwd, sessionId: this.sessionId, reason });
    }
    await this.hooks.lifecycle("shutdown", {});
    await this.host.disposeAll();
  }

  // --- Runtime ---------------------------------------------------------------------------------------

  get sessionId(): string {
    return this.w.session.id;
  }

  get dataDir(): string {
    return this.w.session.dataDir;
  }

  get messages(): readonly Message[] {
    return this.agent.messages;
  }

  get model(): ModelInfo | undefined {
    return this.w.target.model;
  }

  get isRunning(): boolean {
    return this.agent.isRunning;
  }

  get thinking(): ThinkingLevel | undefined {
    return this.w.target.thinking;
  }

  setThinking(level: ThinkingLevel | undefined): void {
    this.w.target.setThinking(level);
  }

  async prompt(content: string | UserContent[]): Promise<RunResult> {
    await this.startSession();
    return this.w.backend.startOnToolCall(this.bus, () => this.agent.run(content));
  }

  steer(content: string | UserContent[]): void {
    this.agent.steer(content);
  }

  followUp(content: string | UserContent[]): void {
    this.agent.followUp(content);
  }

  abort(): void {
    this.agent.abort();
  }

  waitForIdle(): Promise<void> {
    return this.agent.waitForIdle();
  }

  get pluginEntries(): readonly PluginEntry[] {
    return this.w.session.entries.all;
  }

  replaceMessages(messages: Message[], options: ReplaceOptions = {}): void {
    this.w.session.replaceMessages(messages, options);
  }

  setSessionId(id: string): void {
    this.w.session.setSessionId(id);
  }

  setModel(provider: string, model: string): Promise<ModelInfo> {
    return this.w.target.set(provider, model);
  }

  listModels(): ModelInfo[] {
    return this.w.target.list();
  }

  /** Every model of every provider, activating lazy provider plugins. */
  allModels(): Promise<ModelInfo[]> {
    return this.w.target.all();
  }

  modelProblem(options: { probe?: boolean } = {}): Promise<string | undefined> {
    return this.w.target.problem(options);
  }

  ui(): UiContributions {
    return uiContributions(this.contributions);
  }

  listTools() {
    return listTools(this.contributions);
  }

  /** Active commands, and those of plugins still waiting to be loaded (the first use loads them). */
  listCommands() {
    return listCommands(this.contributions, this.host);
  }

  listPlugins(): PluginInfo[] {
    return this.host.list();
  }

  compact(instructions?: string) {
    return this.agent.compactNow(instructions);
  }

  complete(request: SideRequest): Promise<AssistantMessage> {
    const want = request.model && { provider: request.model.provider, model: request.model.id };
    return sideRequest(this.w.target.targetFor(want), request, this.sessionId, this.hooks, this.bus);
  }

  useOps(name: string): void {
    this.w.backend.use(name);
  }

  async runSubagent(request: SubagentRequest): Promise<SubagentResult> {
    await this.startSession();
    return runSubagent(
      {
        cwd: this.cwd,
        hooks: this.hooks,
        tools: () => this.w.tools.get(),
        target: (want) => this.w.target.targetFor(want),
        toolContext: callContext(this.w),
        shared: sharedLoop(this.w),
      },
      request,
    );
  }

  async runTool(call: { name: string; input: Record<string, unknown> }, signal?: AbortSignal) {
    await this.startSession();
    const id = `run_${randomHex(8)}`;
    const toolCall = { type: "toolCall" as const, id, name: call.name, arguments: JSON.stringify(call.input) };
    return this.agent.runTool(toolCall, signal ?? new AbortController().signal);
  }

  async runCommand(line: string): Promise<boolean> {
    const match = /^(\/\S+)\s*([\s\S]*)$/.exec(line.trim());
    if (!match) return false;
    const [, name, args] = match as unknown as [string, string, string];
    // The session starts first: plugins register commands named by the session's files when it starts.
    await this.startSession();
    if (!this.contributions.commands.get(name)) await this.host.activateFor("commands", name);
    const entry = this.contributions.commands.get(name);
    if (!entry) return false;
    await entry.item.run(args, this);
    return true;
  }

  async completeCommand(name: string, prefix: string): Promise<CommandArgument[]> {
    const command = this.contributions.commands.get(name)?.item;
    return command?.complete ? [...(await command.complete(prefix, this))] : [];
  }

  async sessionStore(): Promise<SessionStore | undefined> {
    await this.startSession();
    return this.w.session.sessionStore();
  }

  ask(request: UiRequest): Promise<UiResponse | undefined> {
    return this.hooks.provide("ui_request", request, undefined, request.distributionOnly ? this.w.shipped : undefined);
  }

  notify(message: string, level: "info" | "warning" | "error" = "info"): void {
    this.bus.emit("notice", { level, message });
  }
}
