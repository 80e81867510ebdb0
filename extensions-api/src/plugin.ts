/**
 * Plugins: `definePlugin()` and the API a plugin receives in `activate()`. Activation only registers things;
 * work that needs the session (starting processes, reading state) belongs in the `session_start` hook.
 */
import type { z } from "zod";
import type { CliCommandSpec, FlagSpec } from "./cli.js";
import type { EventPayloads, EventSubscriber, PluginEventName, PluginRef } from "./events.js";
import type { HookRegistrar, RunEndReason } from "./hooks.js";
import type { Logger } from "./logger.js";
import type { PluginInfo, PluginSource } from "./plugin-info.js";
import type { AssistantMessage, Message, ToolResultMessage, Usage, UserContent } from "./messages.js";
import type { OperationsBackend } from "./ops.js";
import type { ModelInfo, Provider, ThinkingLevel } from "./provider.js";
import type { PluginEntry, PluginSession, ReplaceOptions } from "./session.js";
import type { SessionStore } from "./session-store.js";
import type { ReadOnlySource, Tool } from "./tool.js";
import type { Keybinding, MessageRenderer, StatusEntry, UiContributions, UiRequest, UiResponse, Widget } from "./ui.js";

/** How a run ended, as `Runtime.prompt` resolves. */
export interface RunResult {
  reason: RunEndReason;
  /** The messages the run added. */
  messages: Message[];
  /** The text of the last assistant message. */
  finalText: string;
  errorMessage?: string;
}

/** What `Runtime.runSubagent` runs: a separate loop with its own history. */
export interface SubagentRequest {
  /**
   * Names the subagent wherever its work shows: `HookContext.agent` and `ToolContext.agent` of every hook and
   * tool call it makes, `guard_blocked.agent`, and errors (`task:explore`).
   */
  name: string;
  /** Its system prompt, passed through the `system_prompt` transform like the session's own. */
  systemPrompt: string;
  /** The first user message of its history. */
  prompt: string | UserContent[];
  /** The session's tools it may call, by name; a name that is not registered is an error. */
  tools: string[];
  /** Another model than the session's, resolved like `setModel` (rejects when none matches). */
  model?: { provider: string; model: string };
  /** Aborting it aborts the subagent's run (its provider stream and running tools). */
  signal?: AbortSignal;
  /** Requests it may make before it is stopped (`max_steps`); default: the session's `loop.maxSteps`. */
  maxSteps?: number;
}

/** How a subagent's run ended: its final answer and what it cost; its history is not kept. */
export interface SubagentResult extends RunResult {
  /** The usage of all its replies added up. */
  usage: Usage;
}

/** The running agent, as modes and commands drive it. */
export interface Runtime {
  /** The program running the session: the distribution's command (`keel`), version and locked settings keys. */
  readonly app: { readonly command: string; readonly version: string; readonly locked: readonly string[] };
  /** The workspace folder the session works in (`--cwd`, else the current folder). */
  readonly cwd: string;
  /** keel's own folder for sessions, user settings and data (`$KEEL_HOME`, default `~/.keel`). */
  readonly keelHome: string;
  /** The session's id; a session plugin may replace it (resume) before the first prompt. */
  readonly sessionId: string;
  /** A folder private to this session, for files tools and plugins keep. */
  readonly dataDir: string;
  /** The whole history of the session (what the model sees is derived from it before each request). */
  readonly messages: readonly Message[];
  /**
   * The model the next request goes to, picked when the session starts (before the `session_start` hook);
   * undefined when none could be picked — the first run then says why (an unknown provider, a missing key).
   */
  readonly model: ModelInfo | undefined;
  /**
   * The thinking level the next requests ask for: what `setThinking` set, else `--thinking`, else the
   * `thinking` setting; undefined when none says (nothing is asked).
   */
  readonly thinking: ThinkingLevel | undefined;
  /** Changes the thinking level from the next request on; undefined returns to the flag or setting. */
  setThinking(level: ThinkingLevel | undefined): void;
  /** Whether a run is going (between `agent_start` and `agent_end`). */
  readonly isRunning: boolean;
  /** Flags of the main command, by name (core flags and plugin flags). */
  readonly flags: Readonly<Record<string, unknown>>;
  /** Subscribes to the session's events, like `api.events` (for modes and commands holding only the runtime). */
  readonly events: EventSubscriber;
  /** Runs the agent on a prompt until it stops. Rejects only when a run is already going. */
  prompt(content: string | UserContent[]): Promise<RunResult>;
  /** Queues a message that enters at the start of the next turn of the current run. */
  steer(content: string | UserContent[]): void;
  /** Queues a message that starts another round after the run would have stopped. */
  followUp(content: string | UserContent[]): void;
  /**
   * Aborts the current run: the provider stream and running tools see the signal. Steering and follow-ups
   * still queued are dropped (a UI that wants them back keeps its own copy, as the terminal UI does).
   */
  abort(): void;
  /** Resolves when no run is going. */
  waitForIdle(): Promise<void>;
  /** Every plugin's entries on the active branch, oldest first (see `api.session`). */
  readonly pluginEntries: readonly PluginEntry[];
  /**
   * Replaces the history (resume, rewind, fork) and, when `options.entries` is given, the plugin entries with
   * those of the new branch; then fires `history_replaced`. A session store calls it with the branch it moved
   * to. Not allowed while a run is going.
   */
  replaceMessages(messages: Message[], options?: ReplaceOptions): void;
  /** Gives the session another id (a session store resuming or forking one). */
  setSessionId(id: string): void;
  /** Switches the model for the next request (through the `resolve_model` hook); rejects when none matches. */
  setModel(provider: string, model: string): Promise<ModelInfo>;
  /** Every model the registered providers serve. */
  listModels(): ModelInfo[];
  /** Every model of every installed provider, loading the provider plugins still waiting to be (`keel models`). */
  allModels(): Promise<ModelInfo[]>;
  /**
   * Why the next run could not reach a model, in words that say the fix (no provider, a missing key); undefined
   * when the model's provider says it is ready. Asks the provider (`checkReady`), sends no request. With
   * `probe`, also whether its endpoint answers (`Provider.probe`: a connection opened and closed, at most ~1.5 s;
   * an unreachable server is told with what to check) — for UIs to show at start, without waiting to draw.
   */
  modelProblem(options?: { probe?: boolean }): Promise<string | undefined>;
  /** The UI contributions of the active plugins (tool renderers, status entries, widgets, …), for surfaces. */
  ui(): UiContributions;
  /** The registered tools, the plugin each came from and who vouches for its read-only claim (`readOnlyFrom`). */
  listTools(): { name: string; description: string; plugin: string; readOnlyFrom: ReadOnlySource }[];
  /** The registered `/commands` and the plugin each came from. */
  listCommands(): { name: string; description: string; plugin: string }[];
  /** Every plugin the host knows, in any state, as `keel plugins` shows them. */
  listPlugins(): PluginInfo[];
  /**
   * Compacts the history now with the strategy the settings select (the `compact` hook). Resolves undefined
   * when nothing was compacted (too little history, blocked by a guard, no strategy installed).
   */
  compact(instructions?: string): Promise<{ tokensBefore: number; tokensAfter: number } | undefined>;
  /**
   * Asks a model for one reply outside the conversation: no tools, nothing enters the history, no message
   * events. What compaction strategies and branch summaries use. `model` defaults to the session's model.
   * Never throws for a failed request: resolves the assistant message with stop reason `error` or `aborted`
   * and its `errorMessage`.
   */
  complete(request: {
    systemPrompt: string;
    messages: Message[];
    model?: ModelInfo;
    maxTokens?: number;
    signal?: AbortSignal;
  }): Promise<AssistantMessage>;
  /**
   * Makes the session use the operations backend `name` over the one the `ops` setting or a backend flag
   * picks; that one is passed to its `create` as `replaces`, to wrap (so a sandbox still holds). For a mode
   * whose client holds the files (an editor with unsaved buffers). Throws when the managed settings fix the
   * backend, or once it has started (the first run starts it).
   */
  useOps(name: string): void;
  /**
   * Runs a subagent: a loop of its own, with its own history, the tools named, and the session's model unless
   * another is given. Every hook applies inside it as in the session (the `tool_call` guard — the permission
   * policy — judges its calls, and `ctx.agent` names it); its messages are not the session's and fire no
   * message or tool events. Resolves when it stops, with its final text and summed usage; an abort resolves
   * with reason `aborted`. Rejects when a tool or the model is unknown. Several may run at once.
   */
  runSubagent(request: SubagentRequest): Promise<SubagentResult>;
  /**
   * Runs one tool call as if the model had made it (a command's `` !`git status` `` line): the `tool_call`
   * guards judge it — the permission policy asks or refuses as it would for the model —, the tool runs, and the
   * `tool_result` transform sees its result, which resolves (an error result when it was blocked, unknown or
   * invalid). UIs see it run (`tool_execution_*` events); nothing enters the history.
   */
  runTool(call: { name: string; input: Record<string, unknown> }, signal?: AbortSignal): Promise<ToolResultMessage>;
  /** Runs a `/command args` line. Resolves false when the line names no command. */
  runCommand(line: string): Promise<boolean>;
  /**
   * What the argument of an active command may be, for completion while it is typed (`SlashCommand.complete`):
   * the values starting with `prefix`; none for a command that offers none or is not loaded yet.
   */
  completeCommand(name: string, prefix: string): Promise<CommandArgument[]>;
  /**
   * The session store (see `SessionStore`): what surfaces use to list, start, switch, fork and walk sessions.
   * Starts the session first if it has not started. Undefined when no plugin keeps sessions; with several,
   * the first registered.
   */
  sessionStore(): Promise<SessionStore | undefined>;
  /** Asks the user through the active UI; undefined when no UI can ask. */
  ask(request: UiRequest): Promise<UiResponse | undefined>;
  /** Prints a notice the way the active UI shows them. */
  notify(message: string, level?: "info" | "warning" | "error"): void;
}

/** A `/name` command. */
export interface SlashCommand {
  /** With the leading `/`. */
  name: string;
  description: string;
  run(args: string, runtime: Runtime): Promise<void> | void;
  /** The arguments it takes that start with `prefix` (model names, session ids), for completion in UIs. */
  complete?(prefix: string, runtime: Runtime): Promise<CommandArgument[]> | CommandArgument[];
}

/** One argument a command offers for completion. */
export interface CommandArgument {
  value: string;
  /** A few words beside it (a model's name, a session's first prompt). */
  description?: string;
}

export interface ModeOptions {
  /** The prompt given with `-p` or as arguments, if any. */
  prompt?: string;
}

/** A UI: print, JSON, RPC, interactive terminal. Resolves the process exit code. */
export interface Mode {
  name: string;
  description: string;
  run(runtime: Runtime, options: ModeOptions): Promise<number>;
}

/** What `activate()` receives. `S` is the type of this plugin's settings section. */
export interface PluginAPI<S = unknown> {
  /** This plugin: its name and version, its folder, and where it was loaded from. */
  readonly plugin: PluginRef & { dir: string; source: PluginSource };
  /** This plugin's settings section, validated against the plugin's schema. */
  readonly settings: S;
  /** The whole merged settings, read-only (shared sections such as `providers`). */
  readonly allSettings: Readonly<Record<string, unknown>>;
  /**
   * The managed layer alone (the sections `allSettings` shows; empty without one): where to read a switch only an
   * administrator may turn (hooks-command's `disableAllHooks`), since a value in `allSettings` may be any layer's.
   */
  readonly managedSettings: Readonly<Record<string, unknown>>;
  /**
   * This plugin's section as an untrusted project folder wrote it, unvalidated; undefined when the project is
   * trusted or wrote none. Never merged into `settings`: a plugin may apply the parts that only narrow what it
   * allows (a deny rule), never the parts that widen it.
   */
  readonly untrustedSettings: unknown;
  /**
   * Whether the project folder's own configuration applies: the user trusted it, or it holds nothing that
   * needs trust. False while trust is undecided (for the plugins that decide it). A plugin that reads
   * configuration from the project folder itself (agent definitions, server lists) reads it only when true.
   */
  readonly projectTrusted: boolean;
  /** The workspace folder of the session being started. */
  readonly cwd: string;
  /** keel's own folder for sessions, user settings and data. */
  readonly keelHome: string;
  /** Taps hooks (decision points); see docs/hooks-and-events.md. */
  readonly hooks: HookRegistrar;
  /** Subscribes to events (facts for observers); see docs/hooks-and-events.md. */
  readonly events: EventSubscriber;
  /** `debug`/`info` go to stderr under `KEEL_DEBUG=1`; `warn`/`error` become `plugin_warning`/`plugin_error` events. */
  readonly log: Logger;
  /**
   * Adds a tool the model may call. A name already taken gets an alias and a `plugin_warning`. Returns its
   * remover, for tools that come and go while the session runs (an MCP server's); disposing the plugin removes
   * the rest.
   */
  registerTool(tool: Tool<any, any>): () => void;
  /** Adds a model provider, chosen with `--provider` or the `provider` setting. */
  registerProvider(provider: Provider): void;
  /** Adds a `/name` command the user can type. Returns its remover, like `registerTool`. */
  registerCommand(command: SlashCommand): () => void;
  /** Adds a UI mode (`--mode <name>`). */
  registerMode(mode: Mode): void;
  /** Adds a flag to the main `keel` command; its value is in `runtime.flags`. */
  registerFlag(flag: FlagSpec): void;
  /** Adds a subcommand, `keel <name> [args]`, which runs instead of the agent. */
  registerCliCommand(command: CliCommandSpec): void;
  /** Offers an operations backend (where tools read, write and run); the settings choose one. */
  registerOps(backend: OperationsBackend): void;
  /** Offers a session store (where sessions are kept); surfaces reach it through `runtime.sessionStore()`. */
  registerSessionStore(store: SessionStore): void;
  /** Adds an entry to the status line, read after every event. */
  registerStatusEntry(entry: StatusEntry): void;
  /** Adds lines above the editor, read after every event. */
  registerWidget(widget: Widget): void;
  /** Renders this plugin's session entries of one kind in the conversation. */
  registerMessageRenderer(renderer: MessageRenderer): void;
  /** Binds a key of the terminal UI to a slash command line. */
  registerKeybinding(binding: Keybinding): void;
  /**
   * Publishes an event plugins may publish (`PLUGIN_EVENTS`, e.g. `permission_decision`) to every subscriber.
   * Returns how many subscriptions to that event received it (observers of every event, `onAny`, not counted):
   * 0 tells the publisher nobody acts on it (no MCP plugin to connect `session_mcp_servers`).
   */
  publish<K extends PluginEventName>(event: K, payload: EventPayloads[K]): number;
  /**
   * Another registered operations backend by name, activating its plugin if it is still lazy; undefined when
   * none has that name. For backends that wrap another one (read-only, sandboxed, logged): call it inside
   * your backend's `create`, not in `activate`.
   */
  opsBackend(name: string): Promise<OperationsBackend | undefined>;
  /** This plugin's entries in the session: state that follows resume, `/tree`, `/fork` and compaction. */
  readonly session: PluginSession;
  /** The running agent. Available from the `session_start` hook on; throws before. */
  readonly runtime: Runtime;
  /** Runs when the plugin is disposed, in reverse order of registration. */
  onDispose(fn: () => void | Promise<void>): void;
}

export interface PluginDefinition<TSchema extends z.ZodType = z.ZodType<unknown>> {
  /**
   * Schema of this plugin's settings section. An invalid section disables this plugin only (see `onInvalidSettings`).
   */
  settings?: TSchema;
  /**
   * What an invalid settings section does: `"disable"` (the default) keeps the plugin off until the user fixes
   * it; `"defaults"` runs it anyway, with the schema's defaults in place of the invalid keys, and warns. Use
   * `"defaults"` for a plugin the user needs in order to see or fix anything, such as the UI.
   */
  onInvalidSettings?: "disable" | "defaults";
  /** Registers contributions. May return a dispose function. */
  activate(
    api: PluginAPI<z.output<TSchema>>,
  ): void | (() => void | Promise<void>) | Promise<void | (() => void | Promise<void>)>;
}

/** Declares a plugin; the default export of a plugin's entry module. */
export function definePlugin<TSchema extends z.ZodType = z.ZodType<unknown>>(
  definition: PluginDefinition<TSchema>,
): PluginDefinition<TSchema> {
  return definition;
}
