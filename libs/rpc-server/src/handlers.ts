/**
 * What each RPC command does on the runtime: one handler per row of `RPC_COMMANDS`, resolving the response's
 * `data`. A thrown error becomes the failed response's `error`, so each says what to do instead. The same for
 * every transport (stdio, `keel serve`'s sockets).
 */
import type { Runtime, SessionStore, UserContent } from "@keel/extensions-api";
import type { RpcCommandName, RpcRequestOf, RpcResults } from "@keel/rpc-client/protocol";

type Handlers = { [K in RpcCommandName]: (runtime: Runtime, request: RpcRequestOf<K>) => Promise<RpcResults[K]> };

function content(request: { message: string; images?: { type: "image"; data: string; mimeType: string }[] }) {
  if (!request.images?.length) return request.message;
  return [{ type: "text", text: request.message }, ...request.images] satisfies UserContent[];
}

async function store(runtime: Runtime): Promise<SessionStore> {
  const found = await runtime.sessionStore();
  if (!found) throw new Error("no plugin keeps sessions here (install or enable session-jsonl)");
  return found;
}

/** Resolves once the run has begun (or has already ended); rejects when it was refused. */
function started(runtime: Runtime, run: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const off = runtime.events.on("agent_start", () => {
      off();
      resolve();
    });
    run.then(
      () => (off(), resolve()),
      (error: unknown) => (off(), reject(error)),
    );
  });
}

export const HANDLERS: Handlers = {
  async prompt(runtime, request) {
    if (runtime.isRunning) {
      if (request.streamingBehavior === "steer") runtime.steer(content(request));
      else if (request.streamingBehavior === "followUp") runtime.followUp(content(request));
      else
        throw new Error(
          'the agent is working: send the prompt with "streamingBehavior": "steer" or "followUp", or abort first',
        );
      return null;
    }
    if (request.message.startsWith("/") && (await runtime.runCommand(request.message))) return null;
    const run = runtime.prompt(content(request));
    // The run's end is told by agent_end; a run that fails is reported by its events, not here.
    run.catch(() => undefined);
    await started(runtime, run);
    return null;
  },
  async steer(runtime, request) {
    runtime.steer(content(request));
    return null;
  },
  async follow_up(runtime, request) {
    runtime.followUp(content(request));
    return null;
  },
  async abort(runtime) {
    runtime.abort();
    await runtime.waitForIdle();
    return null;
  },
  async get_state(runtime) {
    return {
      model: runtime.model ?? null,
      thinking: runtime.thinking ?? null,
      isRunning: runtime.isRunning,
      sessionId: runtime.sessionId,
      cwd: runtime.cwd,
      messageCount: runtime.messages.length,
    };
  },
  async get_messages(runtime) {
    return { messages: [...runtime.messages] };
  },
  set_model: (runtime, request) => runtime.setModel(request.provider, request.modelId),
  async get_models(runtime) {
    return { models: await runtime.allModels() };
  },
  async set_thinking(runtime, request) {
    runtime.setThinking(request.level ?? undefined);
    return { level: runtime.thinking ?? null };
  },
  async compact(runtime, request) {
    return (await runtime.compact(request.customInstructions)) ?? null;
  },
  async new_session(runtime) {
    await (await store(runtime)).newSession();
    return { sessionId: runtime.sessionId };
  },
  async switch_session(runtime, request) {
    await (await store(runtime)).switchTo(request.sessionPath);
    return { sessionId: runtime.sessionId };
  },
  async fork(runtime, request) {
    return { sessionId: await (await store(runtime)).fork(request.entryId) };
  },
  async get_tree(runtime) {
    return (await store(runtime)).tree();
  },
  async get_commands(runtime) {
    return { commands: runtime.listCommands() };
  },
  async run_command(runtime, request) {
    if (await runtime.runCommand(request.command)) return null;
    const name = request.command.trim().split(/\s/)[0];
    throw new Error(`no plugin offers ${name}; get_commands lists the commands`);
  },
};
