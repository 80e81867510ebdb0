/**
 * keel as an ACP agent on stdin/stdout (`@agentclientprotocol/sdk`): one keel session at a time, bound to the
 * ACP session the editor created (`session/new`) or loaded (`session/load`, any keel session of the folder,
 * replayed as updates). `session/prompt` runs the agent and streams its updates; `session/cancel` aborts;
 * `session/set_mode` switches the permission mode (ask, auto, full) through the permissions plugin's command.
 */
import { Readable, Writable } from "node:stream";
import {
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AgentContext,
  type FileSystemCapabilities,
  type McpServer,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import type { PluginRef, Runtime, RunResult } from "@keel/extensions-api";
import type { EditorFiles } from "./editor-ops.ts";
import { MODES, startMode } from "./modes.ts";
import { promptText, userContent } from "./prompt.ts";
import type { EditorQuestions } from "./questions.ts";
import { LiveRelay, replay } from "./updates.ts";
import { sessionServers } from "./mcp-servers.ts";

function stopReason(result: RunResult): StopReason {
  if (result.reason === "aborted") return "cancelled";
  if (result.reason === "max_steps") return "max_turn_requests";
  if (result.reason === "error")
    throw RequestError.internalError(undefined, result.errorMessage ?? "the run failed without saying why");
  return "end_turn";
}

/** The editor's file methods it offers, for one session. */
function editorFiles(client: AgentContext, sessionId: string, fs: FileSystemCapabilities): EditorFiles {
  return {
    read: fs.readTextFile
      ? async (path) => (await client.request("fs/read_text_file", { sessionId, path })).content
      : undefined,
    write: fs.writeTextFile
      ? async (path, content) => void (await client.request("fs/write_text_file", { sessionId, path, content }))
      : undefined,
  };
}

export interface AgentOptions {
  runtime: Runtime;
  questions: EditorQuestions;
  /** Where the `acp-editor` backend finds the editor's files while a prompt runs. */
  editor: { files?: EditorFiles };
  plugin: PluginRef;
  /** The permissions settings section as merged (`api.allSettings.permissions`), for the mode at start. */
  permissions: unknown;
  /** Something the user should know that is not an ACP answer (stderr). */
  warn(message: string): void;
  /**
   * Hands the servers the editor passed to whichever plugin connects them (the `session_mcp_servers` event);
   * returns how many took them (0: none is active).
   */
  addMcpServers(servers: Record<string, unknown>): number;
}

/** Serves one ACP connection on stdin/stdout until the editor closes it; resolves the exit code. */
export async function serveAcp({
  runtime,
  questions,
  editor,
  plugin,
  permissions,
  warn,
  addMcpServers,
}: AgentOptions): Promise<number> {
  let sessionId: string | undefined;
  let fs: FileSystemCapabilities = {};
  let relay: LiveRelay | undefined;
  // The permissions plugin tells its mode with every decision; until one, the flag or the settings.
  let mode = startMode(runtime.flags, permissions);
  const offMode = runtime.events.on("permission_decision", (d) => void (mode = d.mode));
  const modes = (): SessionModeState => ({ currentModeId: mode, availableModes: MODES });

  const notify = (client: AgentContext, update: SessionUpdate) =>
    void client.notify("session/update", { sessionId: sessionId!, update }).catch(() => undefined);
  const announceCommands = (client: AgentContext) =>
    setImmediate(() =>
      notify(client, {
        sessionUpdate: "available_commands_update",
        availableCommands: runtime.listCommands().map((c) => ({ name: c.name.slice(1), description: c.description })),
      }),
    );
  const checkFolder = (cwd: string) => {
    if (cwd !== runtime.cwd)
      throw RequestError.invalidParams(
        { cwd },
        `keel works in ${runtime.cwd}, the folder it was started in; start \`keel acp\` in ${cwd} ` +
          `(or pass --cwd ${cwd})`,
      );
  };
  const checkIdle = () => {
    if (runtime.isRunning) throw RequestError.invalidRequest(undefined, "a prompt is running; cancel it first");
  };
  // The editor's MCP servers are connected for this session, before its next prompt runs.
  const mcpServers = (servers: readonly McpServer[]) => {
    const { entries, skipped } = sessionServers(servers);
    if (skipped.length > 0) warn(`MCP servers keel cannot connect (it speaks stdio and HTTP): ${skipped.join(", ")}`);
    if (Object.keys(entries).length === 0) return;
    // Whoever subscribes to the event connects them; the contract says who, not a plugin's name.
    if (addMcpServers(entries) === 0)
      warn(
        `the editor passed MCP servers (${Object.keys(entries).join(", ")}); no MCP plugin is active to connect them`,
      );
  };

  const app = agent({ name: plugin.name })
    .onRequest(methods.agent.initialize, ({ params }) => {
      fs = params.clientCapabilities?.fs ?? {};
      if (fs.readTextFile || fs.writeTextFile) {
        try {
          runtime.useOps("acp-editor");
        } catch (error) {
          warn(`files stay on disk, not through the editor: ${(error as Error).message}`);
        }
      }
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } },
        // The program the editor runs (`keel --version`, or a built agent's), not this plugin's own version.
        agentInfo: { name: runtime.app.command, version: runtime.app.version },
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      checkFolder(params.cwd);
      checkIdle();
      mcpServers(params.mcpServers);
      const store = await runtime.sessionStore();
      // The first session is the one keel started with; each later one is new.
      if (sessionId !== undefined) {
        if (store) await store.newSession();
        else runtime.replaceMessages([], { reason: "new", entries: [] });
      }
      sessionId = runtime.sessionId;
      announceCommands(client);
      return { sessionId, modes: modes() };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      checkFolder(params.cwd);
      checkIdle();
      mcpServers(params.mcpServers);
      const store = await runtime.sessionStore();
      if (!store) throw RequestError.invalidRequest(undefined, "this keel keeps no sessions (--no-session)");
      try {
        await store.switchTo(params.sessionId);
      } catch (error) {
        throw RequestError.invalidParams({ sessionId: params.sessionId }, (error as Error).message);
      }
      sessionId = runtime.sessionId;
      replay(runtime, (update) => notify(client, update));
      announceCommands(client);
      return { modes: modes() };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      if (params.sessionId !== sessionId) throw RequestError.sessionNotFound(params.sessionId);
      checkIdle();
      const live = new LiveRelay(runtime, (update) => notify(client, update));
      relay = live;
      const off = live.attach();
      editor.files = editorFiles(client, sessionId, fs);
      questions.open({
        client,
        sessionId,
        toolCall: () => {
          const call = live.deciding;
          return call && { toolCallId: call.id };
        },
      });
      try {
        const line = promptText(params.prompt).trim();
        if (line.startsWith("/") && (await runtime.runCommand(line))) return { stopReason: "end_turn" };
        return { stopReason: stopReason(await runtime.prompt(userContent(params.prompt))) };
      } finally {
        off();
        questions.close();
        relay = undefined;
        editor.files = undefined;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      if (params.sessionId === sessionId && relay) runtime.abort();
    })
    .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
      if (params.sessionId !== sessionId) throw RequestError.sessionNotFound(params.sessionId);
      if (!MODES.some((m) => m.id === params.modeId))
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `the modes are ${MODES.map((m) => m.id).join(", ")}`,
        );
      if (!(await runtime.runCommand(`/permissions ${params.modeId}`)))
        throw RequestError.invalidRequest(undefined, "no permissions plugin is installed to switch modes");
      mode = params.modeId;
      notify(client, { sessionUpdate: "current_mode_update", currentModeId: mode });
      return {};
    });

  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  await connection.closed;
  offMode();
  questions.close();
  runtime.abort();
  await runtime.waitForIdle();
  return 0;
}
