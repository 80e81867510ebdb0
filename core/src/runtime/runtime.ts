/**
 * The runtime: one session of the agent with its plugins. It wires the kernel (bus, hooks, loop) to what the
 * host loaded, and is what modes, commands and plugins drive through the `Runtime` interface.
 */
import {
  THINKING_LEVELS,
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
  type Tool,
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
import { PluginHost } from "../host/plugin-host.js";
import type { InlineCandidate } from "../host/plugin-record.js";
import { Agent } from "../loop/agent.js";
import type { ActiveTool } from "../loop/tool-calls.js";
import type { Entry } from "../registry/registry.js";
import type { CoreSettings } from "../settings/core-settings.js";
import { managedSettingsFile } from "../settings/managed.js";
import { unknownSettingsKeys } from "../settings/unknown-keys.js";
import { loadSettingLayers, namedLayers, type SettingLayers, type SettingsObject } from "../settings/settings.js";
import { decideProjectTrust, type ProjectTrust, type TrustOptions } from "../trust/decide.js";
import { TrustStore } from "../trust/trust-store.js";
import { keepingTrust } from "../trust/keep-trust.js";
import { checkRequired } from "./required-plugins.js";
import { ModelChoice } from "./model-choice.js";
import { BackendSlot, createSessionOps } from "./ops.js";
import { SessionMoves } from "./session-moves.js";
import { sideRequest, type SideRequest } from "./side-request.js";
import { SettingsView } from "./settings-view.js";
import { uiContributions } from "./ui-contributions.js";
import { listCommands, listTools } from "./listings.js";
import { activeTools, toolContext } from "./tool-wiring.js";
import { runSubagent, type SubagentHost } from "./subagent.js";
import { trace } from "../trace.js";
import type { Distribution } from "./distribution.js";

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
  private readonly view: SettingsView;
  private readonly promptAdditions: string[];
  private agent!: Agent;
  private readonly target: ModelChoice;
  /** What `setThinking` chose; undefined falls back to the flag and the setting. */
  private thinkingChosen: ThinkingLevel | undefined;
  private readonly backend = new BackendSlot(() => {
    const { explicit, setting } = this.wantedOps();
    const choice =
      this.opsChosen === undefined
        ? { explicit, setting }
        : { explicit: this.opsChosen, replaces: explicit ?? setting };
    return createSessionOps(choice, this.session.entries, this.cwd, this.host, this.contributions);
  });
  /** What `useOps` chose, over the flag and the setting. */
  private opsChosen: string | undefined;
  private readonly session: SessionMoves;
  private sessionStarted = false;
  private shuttingDown: Promise<void> | undefined;
  private toolsInEffect:
    | { registered: readonly Entry<Tool>[]; enabled: readonly string[] | undefined; tools: Map<string, ActiveTool> }
    | undefined;

  private constructor(options: RuntimeOptions, layers: SettingLayers) {
    this.cwd = options.cwd;
    this.keelHome = options.keelHome;
    this.flags = { ...options.flags };
    // The distribution's command is what messages call the program.
    const command = options.distribution?.command ?? "keel";
    this.app = { command, version: options.distribution?.version ?? "" };
    this.warnings = layers.warnings;
    this.promptAdditions = options.distribution?.promptAdditions ?? [];
    this.view = new SettingsView(layers, options.distribution?.locked ?? [], command, this.warnings, () =>
      this.host === undefined ? [] : this.host.addingLists(),
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
    this.session = new SessionMoves(this.bus, this.keelHome, this.contributions, () => this.agent);
    this.host = new PluginHost({
      bus: this.bus,
      hooks: this.hooks,
      contributions: this.contributions,
      cwd: this.cwd,
      keelHome: this.keelHome,
      settings: () => this.view.settings,
      untrustedSettings: (key) => this.view.untrusted(key),
      projectTrusted: () => this.trust?.trusted === true,
      settingLayers: () => namedLayers(this.view.layers),
      activationTimeoutMs: () => this.core.activationTimeoutMs,
      session: this.session.entries,
      runtime: () => (this.sessionStarted ? this : undefined),
    });
    this.target = new ModelChoice(this.host, this.contributions, this.hooks, command, () => ({
      provider: str(this.flags.provider) ?? this.core.provider,
      model: str(this.flags.model) ?? this.core.model,
    }));
  }

  /** Settles the settings once the project's trust is known, and builds the loop on them. */
  private settle(trust: ProjectTrust): void {
    this.trust = trust;
    this.view.settle(trust);
    this.agent = new Agent({
      ...this.sharedLoop(),
      bus: this.bus,
      hooks: this.hooks,
      model: () => this.target.ready(),
      tools: () => this.activeTools(),
      systemPrompt: (model, toolNames) =>
        this.hooks.transform("system_prompt", this.basePrompt(), {
          cwd: this.cwd,
          model,
          toolNames,
          additions: this.promptAdditions,
        }),
      toolContext: (call, signal, update) => this.toolContext(call, signal, update),
      historyCompacted: () => this.session.historyReplaced("compaction"),
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
      sessionId: () => this.session.id,
      thinking: () => this.thinking,
      limits: this.core.loop,
      compaction: this.core.compaction,
    };
  }

  /** The managed layer's `plugins.allowedCatalogs` and where that file is (for the plugin installer). */
  get catalogPolicy(): { allowedCatalogs?: readonly string[]; managedFile: string } {
    return this.view.catalogPolicy;
  }

  /** The settings keys (dotted) the distribution locks against every layer below the managed one. */
  get lockedKeys(): readonly string[] {
    return this.view.lockedKeys;
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
    return this.view.settings;
  }

  /** The kernel's own keys of the settings in effect. */
  get core(): CoreSettings {
    return this.view.core;
  }

  /**
   * Builds the runtime: settings, discovery, manifests, and the plugins that start with the host. The order
   * matters: the plugins that decide project trust activate first, on settings without the
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
    // A built distribution's plugins (npm ones installed, its own copied) are in its scope `bundled/`, locked too.
    const shipped = new Set(candidates.filter((c) => c.source === "distribution").map((c) => c.dir));
    const refused = verifyInstalled(
      candidates.filter((c) => c.source === "user" || c.source === "distribution").map((c) => c.dir),
      {
        keelHome: options.keelHome,
        command: options.distribution?.command ?? "keel",
        shipped,
        distributionRoot: options.distribution?.root,
      },
    );
    trace("installed plugins verified");
    runtime.host.register(
      candidates.map((c) => ({ ...c, refused: refused.get(c.dir) })),
      options.inline,
    );
    runtime.warnings.push(...unknownSettingsKeys(namedLayers(layers), runtime.host.knownSettingsKeys()));
    const trust = await decideProjectTrust({
      cwd: options.cwd,
      project: layers.project,
      store: new TrustStore(options.keelHome),
      hooks: runtime.hooks,
      options: options.trust ?? {},
      isCliCommand: (word) => runtime.host.declaresCliCommand(word),
      command: options.distribution?.command ?? "keel",
      warnings: runtime.warnings,
      activateDeciders: () => runtime.host.activateTrustDeciders(runtime.view.pluginPolicy()),
    });
    runtime.settle(trust);
    runtime.host.applyPolicy(runtime.view.pluginPolicy());
    const required = runtime.view.requiredPlugins();
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
    await this.hooks.lifecycle("session_start", { cwd: this.cwd, sessionId: this.sessionId });
    trace("session started");
    this.bus.emit("session_start", { cwd: this.cwd, sessionId: this.sessionId });
  }

  /**
   * Picks the session's model if none is yet, without asking its provider whether it is ready, so modes and
   * commands can show it; a problem (unknown provider, missing key) is left for the first run to report.
   */
  pickModel(): Promise<void> {
    return this.target.pick();
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
    return this.session.id;
  }

  get dataDir(): string {
    return this.session.dataDir;
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
    // The backend starts once the model begins a tool call, so it never delays the request and an answer of
    // text alone never loads it (a `-p` question saves ~5 ms); the call's arguments stream meanwhile, and tools
    // wait for it.
    let off: (() => void) | undefined;
    if (!this.backend.started) {
      off = this.bus.on("message_update", ({ delta }) => {
        if (delta.type !== "toolcall_start") return;
        off?.();
        void this.backend.prepare();
      });
    }
    try {
      return await this.agent.run(content);
    } finally {
      off?.();
    }
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
    return this.session.entries.all;
  }

  replaceMessages(messages: Message[], options: ReplaceOptions = {}): void {
    this.session.replaceMessages(messages, options);
  }

  setSessionId(id: string): void {
    this.session.setSessionId(id);
  }

  setModel(provider: string, model: string): Promise<ModelInfo> {
    return this.target.set(provider, model);
  }

  listModels(): ModelInfo[] {
    return this.target.list();
  }

  /** Every model of every provider, activating lazy provider plugins. */
  allModels(): Promise<ModelInfo[]> {
    return this.target.all();
  }

  modelProblem(options: { probe?: boolean } = {}): Promise<string | undefined> {
    return this.target.problem(options);
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
    return sideRequest(this.target.targetFor(want), request, this.sessionId, this.hooks, this.bus);
  }

  useOps(name: string): void {
    if (this.backend.started)
      throw new Error(`the operations backend has started already; useOps("${name}") must come before the first run`);
    if (this.view.managedOps) throw new Error(`the managed settings fix the operations backend ("${this.core.ops}")`);
    this.opsChosen = name;
  }

  async runSubagent(request: SubagentRequest): Promise<SubagentResult> {
    await this.startSession();
    return runSubagent(
      {
        cwd: this.cwd,
        hooks: this.hooks,
        tools: () => this.activeTools(),
        target: (want) => this.target.targetFor(want),
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

  async completeCommand(name: string, prefix: string): Promise<CommandArgument[]> {
    const command = this.contributions.commands.get(name)?.item;
    return command?.complete ? [...(await command.complete(prefix, this))] : [];
  }

  async sessionStore(): Promise<SessionStore | undefined> {
    await this.startSession();
    return this.session.sessionStore();
  }

  ask(request: UiRequest): Promise<UiResponse | undefined> {
    return this.hooks.provide("ui_request", request);
  }

  notify(message: string, level: "info" | "warning" | "error" = "info"): void {
    this.bus.emit("notice", { level, message });
  }

  // --- wiring ----------------------------------------------------------------------------------------

  /**
   * `explicit`: the backend the managed layer names (nothing below undoes it), else the one a given boolean flag
   * picks (`FlagSpec.ops`, e.g. `--sandbox`); `setting`: the `ops` setting, which a resumed session's record of
   * its backend overrides.
   */
  private wantedOps(): { explicit?: string; setting?: string } {
    if (this.view.managedOps) return { explicit: this.core.ops };
    const picked = this.contributions.flags
      .list()
      .find((e) => e.item.ops !== undefined && this.flags[e.item.name] === true);
    return { explicit: picked?.item.ops, setting: this.core.ops };
  }

  /** The `systemPrompt` setting and the distribution's additions after it, which no settings layer removes. */
  private basePrompt(): string {
    return [this.core.systemPrompt, ...this.promptAdditions].filter((part) => part.length > 0).join("\n\n");
  }

  /** Asked for every request and every call; rebuilt only once a tool came or went or `tools.enabled` changed. */
  private activeTools(): Map<string, ActiveTool> {
    const registered = this.contributions.tools.entries();
    const enabled = this.core.tools.enabled;
    const memo = this.toolsInEffect;
    if (memo?.registered === registered && memo.enabled === enabled) return memo.tools;
    const tools = activeTools(registered, enabled);
    this.toolsInEffect = { registered, enabled, tools };
    return tools;
  }

  private toolContext(
    call: ToolCall,
    signal: AbortSignal,
    update: (partial: ToolResult) => void,
    agent?: string,
  ): ToolContext {
    return toolContext(call, signal, update, agent, {
      cwd: this.cwd,
      dataDir: () => this.dataDir,
      ops: () => this.backend.current,
    });
  }
}

/** Names the hook and, when the plugin named its handler, the handler: the plugin itself is the event's. */
function hookFailure(f: HookFailure): string {
  return `its ${f.hook} hook${f.tap !== f.owner.name ? ` handler "${f.tap}"` : ""} failed: ${f.message}`;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
