/**
 * The runtime: one session of the agent with its plugins. It wires the kernel (bus, hooks, loop) to what the
 * host loaded, and is what modes, commands and plugins drive through the `Runtime` interface.
 */
import { mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import {
  emptyUsage,
  THINKING_LEVELS,
  type AssistantMessage,
  type EventSubscriber,
  type HistoryReplaceReason,
  type ModelInfo,
  type Message,
  type Operations,
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
  type ToolCall,
  type ToolContext,
  type ToolResult,
  type UiContributions,
  type UiRequest,
  type UiResponse,
  type UserContent,
} from "@keel/extensions-api";
import { EventBus, KERNEL } from "../bus/event-bus.js";
import { HookBus, type HookFailure } from "../hooks/hook-bus.js";
import { createContributions, type Contributions } from "../host/contributions.js";
import { discover } from "../host/discover.js";
import { verifyInstalled } from "../host/installed/verify.js";
import { PluginHost, type InlineCandidate, type PluginPolicy } from "../host/plugin-host.js";
import { Agent } from "../loop/agent.js";
import { toModelContext } from "../loop/history.js";
import { requestOptions, streamReply } from "../loop/stream-reply.js";
import type { ActiveTool } from "../loop/tool-calls.js";
import { parseCoreSettings, type CoreSettings } from "../settings/core-settings.js";
import {
  managedPolicy,
  managedSettingsFile,
  overlayManaged,
  requiredPlugins,
  type ManagedPolicy,
} from "../settings/managed.js";
import { unknownSettingsKeys } from "../settings/unknown-keys.js";
import {
  loadSettingLayers,
  mergeSettings,
  namedLayers,
  type SettingLayers,
  type SettingsObject,
} from "../settings/settings.js";
import { decideProjectTrust, type ProjectTrust, type TrustOptions } from "../trust/decide.js";
import { TrustStore } from "../trust/trust-store.js";
import { checkRequired } from "./required-plugins.js";
import { allModels, resolveTarget, type Target } from "./model-resolver.js";
import { ModelSlot } from "./model-slot.js";
import { BackendSlot, createOps } from "./ops.js";
import { checkedEntries, PluginEntries } from "./plugin-entries.js";
import { uiContributions } from "./ui-contributions.js";
import { runSubagent, type SubagentHost } from "./subagent.js";
import { trace } from "../trace.js";
import type { Distribution } from "./distribution.js";
import { applyLocks, lockWarnings } from "../settings/locked.js";

export type { Distribution };

export interface RuntimeOptions {
  cwd: string;
  keelHome: string;
  distribution?: Distribution;
  pluginPaths?: string[];
  safeMode?: boolean;
  /** Layers from `--settings`, over the files. */
  extraSettings?: SettingsObject[];
  flags?: Record<string, unknown>;
  inline?: InlineCandidate[];
  /** How the project folder's trust is decided (`--trust`, whether the UI may ask). */
  trust?: TrustOptions;
  /** The managed settings file; default `KEEL_MANAGED_SETTINGS` or /etc/keel/managed-settings.json. */
  managedSettingsFile?: string;
}

/** The settings in effect: before the project's trust is decided, they leave the project out. */
interface SettingsView {
  settings: SettingsObject;
  core: CoreSettings;
  /** The project's settings while it is untrusted (plugins see their section as `untrustedSettings`). */
  untrusted?: SettingsObject;
}

export class KeelRuntime implements Runtime {
  readonly bus = new EventBus();
  readonly hooks: HookBus;
  readonly contributions: Contributions;
  readonly host: PluginHost;
  readonly cwd: string;
  readonly keelHome: string;
  readonly flags: Record<string, unknown>;
  readonly events: EventSubscriber;
  readonly app: { command: string; version: string };
  /** Settings problems found while loading, for the CLI to print. */
  readonly warnings: string[];
  /** The project folder's trust, decided while the runtime is created. */
  trust: ProjectTrust | undefined;
  private view: SettingsView;
  private readonly managed: ManagedPolicy;
  /** The distribution's locked keys and prompt additions. */
  private readonly locked: string[];
  private readonly promptAdditions: string[];
  /** The distribution's command: what messages call the program. */
  private readonly command: string;
  private agent!: Agent;
  private readonly target = new ModelSlot((checkReady) =>
    resolveTarget(this.wantedModel(), this.host, this.contributions, this.hooks, checkReady, this.command),
  );
  /** What `setThinking` chose; undefined falls back to the flag and the setting. */
  private thinkingChosen: ThinkingLevel | undefined;
  private readonly backend = new BackendSlot(() => {
    const wanted = this.wantedOps();
    if (this.opsChosen === undefined) return createOps(wanted, this.cwd, this.host, this.contributions);
    return createOps(this.opsChosen, this.cwd, this.host, this.contributions, wanted);
  });
  /** What `useOps` chose, over the flag and the setting. */
  private opsChosen: string | undefined;
  private readonly entries = new PluginEntries((entry) => this.bus.emit("session_entry", { entry }));
  private id: string = randomUUID();
  private sessionStarted = false;
  /** The data folder already created (the session id can change on resume). */
  private madeDataDir: string | undefined;

  private constructor(
    options: RuntimeOptions,
    private readonly layers: SettingLayers,
  ) {
    this.cwd = options.cwd;
    this.keelHome = options.keelHome;
    this.flags = { ...options.flags };
    this.app = { command: options.distribution?.command ?? "keel", version: options.distribution?.version ?? "" };
    this.warnings = layers.warnings;
    this.locked = options.distribution?.locked ?? [];
    this.promptAdditions = options.distribution?.promptAdditions ?? [];
    this.command = options.distribution?.command ?? "keel";
    const [, ...below] = namedLayers(layers);
    this.warnings.push(...lockWarnings(below.slice(0, -1), this.locked, this.command));
    // Until the project's trust is decided, the settings leave the project out (its problems are reported then).
    const early = this.compose(undefined);
    this.view = { settings: early, core: parseCoreSettings(early, []) };
    this.managed = managedPolicy(
      layers.managed,
      layers.managedFile,
      [layers.defaults, layers.user, ...layers.extra],
      this.warnings,
    );
    this.hooks = new HookBus(
      (f) => this.bus.emit("plugin_error", { plugin: f.owner, phase: `hook ${f.hook}`, message: hookFailure(f) }),
      (hook, by, reason, subject, agent) =>
        this.bus.emit("guard_blocked", agent ? { hook, by, reason, subject, agent } : { hook, by, reason, subject }),
    );
    this.contributions = createContributions(
      () => this.core.prefer,
      (message, owner) =>
        this.bus.emit("plugin_warning", { plugin: { name: owner.name, version: owner.version }, message }),
    );
    this.events = this.bus.subscriberFor(KERNEL, () => undefined);
    this.host = new PluginHost({
      bus: this.bus,
      hooks: this.hooks,
      contributions: this.contributions,
      cwd: this.cwd,
      keelHome: this.keelHome,
      settings: () => this.view.settings,
      untrustedSettings: (key) => this.view.untrusted?.[key],
      projectTrusted: () => this.trust?.trusted === true,
      settingLayers: () => namedLayers(this.layers),
      activationTimeoutMs: () => this.core.activationTimeoutMs,
      session: this.entries,
      runtime: () => (this.sessionStarted ? this : undefined),
    });
  }

  /** The layers that apply, merged: the project's whole file, only its allowed keys, or none of it yet. */
  private compose(project: SettingsObject | undefined): SettingsObject {
    const { defaults, user, extra, managed } = this.layers;
    const adding = new Set(this.host?.addingLists() ?? []);
    const merged = mergeSettings([defaults, user, project, ...extra], adding);
    return overlayManaged(applyLocks(merged, defaults, this.locked), managed);
  }

  private pluginPolicy(): PluginPolicy {
    const { blocked, allowed } = this.managed.plugins;
    return {
      disabled: this.core.plugins.disabled,
      blocked,
      allowed,
      managedFile: this.layers.managedFile,
      projectTrusted: this.trust?.trusted === true,
    };
  }

  /** Settles the settings once the project's trust is known, and builds the loop on them. */
  private settle(trust: ProjectTrust): void {
    this.trust = trust;
    const project = trust.trusted ? this.layers.project : trust.allowed;
    const settings = this.compose(project);
    this.view = {
      settings,
      core: parseCoreSettings(settings, this.warnings),
      untrusted: trust.trusted ? undefined : this.layers.project,
    };
    this.agent = new Agent({
      ...this.sharedLoop(),
      bus: this.bus,
      hooks: this.hooks,
      model: () => this.target.ready(),
      tools: () => this.activeTools(),
      systemPrompt: (model, toolNames) =>
        this.hooks.transform("system_prompt", this.basePrompt(), { cwd: this.cwd, model, toolNames }),
      toolContext: (call, signal, update) => this.toolContext(call, signal, update),
      historyCompacted: () => this.historyReplaced("compaction"),
    });
  }

  /** The loop wiring the session's agent and its subagents share. */
  private sharedLoop(): SubagentHost["shared"] {
    return {
      toolsReady: () => this.backend.prepare(),
      toolFault: (plugin, message, severity) =>
        severity === "error"
          ? this.bus.emit("plugin_error", { plugin, phase: "tool", message })
          : this.bus.emit("plugin_warning", { plugin, message }),
      sessionId: () => this.id,
      thinking: () => this.thinking,
      limits: this.core.loop,
      compaction: this.core.compaction,
    };
  }

  /** The managed layer's `plugins.allowedCatalogs` and where that file is (for the plugin installer). */
  get catalogPolicy(): { allowedCatalogs?: readonly string[]; managedFile: string } {
    return { allowedCatalogs: this.managed.plugins.allowedCatalogs, managedFile: this.layers.managedFile };
  }

  /** The merged settings in effect. */
  get settings(): SettingsObject {
    return this.view.settings;
  }

  /** The kernel's own keys of the settings in effect. */
  get core(): CoreSettings {
    return this.view.core;
  }

  /** Builds the runtime: settings, discovery, manifests, and the plugins that start with the host. */
  /**
   * The order matters: the plugins that decide project trust activate first, on settings without the
   * project; then trust is decided and the settings settle; then everything else activates on them. Rejects
   * (after disposing what started) when a required plugin cannot run.
   */
  static async create(options: RuntimeOptions, beforeLoad?: (runtime: KeelRuntime) => void): Promise<KeelRuntime> {
    const layers = loadSettingLayers({
      keelHome: options.keelHome,
      cwd: options.cwd,
      defaults: options.distribution?.settings,
      extra: options.extraSettings,
      managedFile: options.managedSettingsFile ?? managedSettingsFile(),
    });
    const runtime = new KeelRuntime(options, layers);
    beforeLoad?.(runtime);
    const candidates = discover({
      distributionPlugins: options.distribution?.plugins ?? [],
      keelHome: options.keelHome,
      cliPlugins: options.pluginPaths ?? [],
      safeMode: options.safeMode ?? false,
      projectDir: options.cwd,
    });
    const refused = verifyInstalled(
      // A built distribution's npm plugins are installed in its own scope (`bundled/`), locked the same way.
      candidates.filter((c) => c.source === "user" || c.source === "distribution").map((c) => c.dir),
      { keelHome: options.keelHome, command: options.distribution?.command ?? "keel" },
    );
    trace("installed plugins verified");
    runtime.host.register(
      candidates.map((c) => ({ ...c, refused: refused.get(c.dir) })),
      options.inline,
    );
    runtime.warnings.push(...unknownSettingsKeys(namedLayers(layers), runtime.host.knownSettingsKeys()));
    await runtime.host.activateTrustDeciders(runtime.pluginPolicy());
    const trust = await decideProjectTrust({
      cwd: options.cwd,
      project: layers.project,
      store: new TrustStore(options.keelHome),
      hooks: runtime.hooks,
      options: options.trust ?? {},
      isCliCommand: (word) => runtime.host.declaresCliCommand(word),
      command: options.distribution?.command ?? "keel",
      warnings: runtime.warnings,
    });
    runtime.settle(trust);
    runtime.host.applyPolicy(runtime.pluginPolicy());
    const required = requiredPlugins([
      layers.defaults,
      layers.user,
      trust.trusted ? layers.project : undefined,
      ...layers.extra,
      layers.managed,
    ]);
    await runtime.host.activateNow(required);
    await runtime.host.activateStartup();
    const failure = checkRequired(required, runtime.host, {
      safeMode: options.safeMode ?? false,
      managedFile: layers.managedFile,
    });
    if (failure) {
      await runtime.shutdown();
      throw failure;
    }
    return runtime;
  }

  // --- session lifecycle -------------------------------------------------------------------------------

  /** Starts the session: plugins may now use `api.runtime` (resume, background work). */
  async startSession(): Promise<void> {
    if (this.sessionStarted) return;
    this.sessionStarted = true;
    await this.pickModel();
    await this.hooks.lifecycle("session_start", { cwd: this.cwd, sessionId: this.id });
    trace("session started");
    this.bus.emit("session_start", { cwd: this.cwd, sessionId: this.id });
  }

  /**
   * Picks the session's model if none is yet, without asking its provider whether it is ready, so modes and
   * commands can show it; a problem (unknown provider, missing key) is left for the first run to report.
   */
  pickModel(): Promise<void> {
    return this.target.pick();
  }

  /** Ends the session (`reason` says why, to `session_end`) and disposes every plugin. Safe to call more than once. */
  async shutdown(reason: SessionEndReason = "other"): Promise<void> {
    if (this.agent.isRunning) {
      this.agent.abort();
      await this.agent.waitForIdle();
    }
    if (this.sessionStarted) {
      this.sessionStarted = false;
      await this.hooks.lifecycle("session_end", { cwd: this.cwd, sessionId: this.id, reason });
      this.bus.emit("session_end", { cwd: this.cwd, sessionId: this.id, reason });
    }
    await this.hooks.lifecycle("shutdown", {});
    await this.host.disposeAll();
  }

  // --- Runtime ---------------------------------------------------------------------------------------

  get sessionId(): string {
    return this.id;
  }

  get dataDir(): string {
    const dir = join(this.keelHome, "data", this.id);
    if (dir !== this.madeDataDir) {
      mkdirSync(dir, { recursive: true });
      this.madeDataDir = dir;
    }
    return dir;
  }

  get messages(): readonly Message[] {
    return this.agent.messages;
  }

  get model(): ModelInfo | undefined {
    return this.target.model;
  }

  get isRunning(): boolean {
    return this.agent.isRunning;
  }

  get thinking(): ThinkingLevel | undefined {
    return this.thinkingChosen ?? (str(this.flags.thinking) as ThinkingLevel | undefined) ?? this.core.thinking;
  }

  setThinking(level: ThinkingLevel | undefined): void {
    if (level !== undefined && !THINKING_LEVELS.includes(level))
      throw new Error(`A thinking level is one of ${THINKING_LEVELS.join(", ")} (got ${JSON.stringify(level)}).`);
    this.thinkingChosen = level;
  }

  async prompt(content: string | UserContent[]): Promise<RunResult> {
    await this.startSession();
    // The backend starts once the model has begun to answer, so it never delays the request; tools wait for it.
    if (!this.backend.started) {
      const off = this.bus.on("message_start", ({ message }) => {
        if (message.role !== "assistant") return;
        off();
        void this.backend.prepare();
      });
    }
    return this.agent.run(content);
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
    return this.entries.all;
  }

  replaceMessages(messages: Message[], options: ReplaceOptions = {}): void {
    const entries = options.entries && checkedEntries(options.entries);
    this.agent.replaceMessages(messages);
    if (entries) this.entries.set(entries);
    this.historyReplaced(options.reason ?? "other");
  }

  setSessionId(id: string): void {
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(id))
      throw new Error(`A session id may hold only letters, digits, _ . - (got ${JSON.stringify(id)}).`);
    this.id = id;
  }

  async setModel(provider: string, model: string): Promise<ModelInfo> {
    const target = await resolveTarget(
      { provider, model },
      this.host,
      this.contributions,
      this.hooks,
      true,
      this.command,
    );
    this.target.set(target);
    return target.model;
  }

  listModels(): ModelInfo[] {
    return this.contributions.providers.list().flatMap((e) => e.item.models().map((m) => ({ ...m, provider: e.name })));
  }

  /** Every model of every provider, activating lazy provider plugins. */
  allModels(): Promise<ModelInfo[]> {
    return allModels(this.host, this.contributions);
  }

  modelProblem(): Promise<string | undefined> {
    return this.target.ready().then(
      () => undefined,
      (error: Error) => error.message,
    );
  }

  ui(): UiContributions {
    return uiContributions(this.contributions);
  }

  listTools() {
    return this.contributions.tools
      .list()
      .map((e) => ({ name: e.name, description: e.item.description, plugin: e.owner.name }));
  }

  /** Active commands, and those of plugins still waiting to be loaded (the first use loads them). */
  listCommands() {
    const active = this.contributions.commands
      .list()
      .map((e) => ({ name: e.name, description: e.item.description, plugin: e.owner.name }));
    const waiting = this.host
      .list()
      .filter((p) => p.state === "lazy")
      .flatMap((p) =>
        p.contributes.commands
          .filter((name) => !active.some((c) => c.name === name))
          .map((name) => ({ name, description: `(from ${p.name}, loaded on first use)`, plugin: p.name })),
      );
    return [...active, ...waiting];
  }

  listPlugins(): PluginInfo[] {
    return this.host.list();
  }

  compact(instructions?: string) {
    return this.agent.compactNow(instructions);
  }

  async complete(request: {
    systemPrompt: string;
    messages: Message[];
    model?: ModelInfo;
    maxTokens?: number;
    signal?: AbortSignal;
  }): Promise<AssistantMessage> {
    let target: Target;
    try {
      target = request.model
        ? await resolveTarget(
            { provider: request.model.provider, model: request.model.id },
            this.host,
            this.contributions,
            this.hooks,
            true,
            this.command,
          )
        : await this.target.ready();
    } catch (error) {
      return {
        role: "assistant",
        content: [],
        stopReason: "error",
        errorMessage: (error as Error).message,
        usage: emptyUsage(),
        provider: request.model?.provider ?? "none",
        model: request.model?.id ?? "none",
        timestamp: Date.now(),
      };
    }
    const { provider, model } = target;
    const signal = request.signal ?? new AbortController().signal;
    const side = {
      model,
      systemPrompt: request.systemPrompt,
      messages: toModelContext(request.messages),
      tools: [],
      maxTokens: request.maxTokens ?? model.maxOutput,
      sessionId: this.id,
    };
    return streamReply(provider, side, requestOptions(provider, model, signal, this.hooks, this.bus));
  }

  useOps(name: string): void {
    if (this.backend.started)
      throw new Error(`the operations backend has started already; useOps("${name}") must come before the first run`);
    if (typeof this.layers.managed?.ops === "string")
      throw new Error(`the managed settings fix the operations backend ("${this.core.ops}")`);
    this.opsChosen = name;
  }

  async runSubagent(request: SubagentRequest): Promise<SubagentResult> {
    await this.startSession();
    return runSubagent(
      {
        cwd: this.cwd,
        hooks: this.hooks,
        tools: () => this.activeTools(),
        target: (want) => (want ? resolveTarget(want, this.host, this.contributions, this.hooks) : this.target.ready()),
        toolContext: (call, signal, update, agent) => this.toolContext(call, signal, update, agent),
        shared: this.sharedLoop(),
      },
      request,
    );
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

  async sessionStore(): Promise<SessionStore | undefined> {
    await this.startSession();
    return this.contributions.sessionStores.list()[0]?.item;
  }

  ask(request: UiRequest): Promise<UiResponse | undefined> {
    return this.hooks.provide("ui_request", request);
  }

  notify(message: string, level: "info" | "warning" | "error" = "info"): void {
    this.bus.emit("notice", { level, message });
  }

  // --- wiring ----------------------------------------------------------------------------------------

  private wantedModel(): { provider?: string; model?: string } {
    return {
      provider: str(this.flags.provider) ?? this.core.provider,
      model: str(this.flags.model) ?? this.core.model,
    };
  }

  /**
   * The backend the managed layer names (nothing below undoes it), else the one a given boolean flag picks
   * (`FlagSpec.ops`, e.g. `--sandbox`), else the `ops` setting.
   */
  private wantedOps(): string | undefined {
    if (typeof this.layers.managed?.ops === "string") return this.core.ops;
    const picked = this.contributions.flags
      .list()
      .find((e) => e.item.ops !== undefined && this.flags[e.item.name] === true);
    return picked?.item.ops ?? this.core.ops;
  }

  private historyReplaced(reason: HistoryReplaceReason): void {
    this.bus.emit("history_replaced", { reason, messages: this.agent.messages, entries: this.entries.all });
  }

  /** The `systemPrompt` setting and the distribution's additions after it, which no settings layer removes. */
  private basePrompt(): string {
    return [this.core.systemPrompt, ...this.promptAdditions].filter((part) => part.length > 0).join("\n\n");
  }

  /** The registered tools, less those `tools.enabled` (when set) leaves out. */
  private activeTools(): Map<string, ActiveTool> {
    const enabled = this.core.tools.enabled && new Set(this.core.tools.enabled);
    return new Map(
      this.contributions.tools
        .list()
        .filter((e) => !enabled || enabled.has(e.name))
        .map((e) => [e.name, { name: e.name, tool: e.item, owner: { name: e.owner.name, version: e.owner.version } }]),
    );
  }

  private toolContext(
    call: ToolCall,
    signal: AbortSignal,
    update: (partial: ToolResult) => void,
    agent?: string,
  ): ToolContext {
    const runtime = this;
    return {
      ...(agent === undefined ? {} : { agent }),
      signal,
      toolCallId: call.id,
      cwd: this.cwd,
      update,
      get dataDir() {
        return runtime.dataDir;
      },
      get ops(): Operations {
        return runtime.backend.current;
      },
    };
  }
}

/** Names the hook and, when the plugin named its handler, the handler: the plugin itself is the event's. */
function hookFailure(f: HookFailure): string {
  return `its ${f.hook} hook${f.tap !== f.owner.name ? ` handler "${f.tap}"` : ""} failed: ${f.message}`;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
