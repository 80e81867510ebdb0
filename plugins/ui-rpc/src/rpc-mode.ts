/**
 * The `rpc` mode: reads requests from stdin split on LF only, answers each with a response line, streams
 * every event as a line, and sends plugins' questions out. stdout carries only protocol lines (everything
 * else keel prints goes to stderr). Ends when stdin closes, or when the parent process goes (its pipe may be
 * held open by another process, so the parent is also watched), after aborting any run.
 */
import type { Mode, Runtime } from "@keel/extensions-api";
import { EventRendering } from "@keel/extensions-api/render";
import {
  eventLine,
  LineSplitter,
  RPC_COMMANDS,
  RpcRequestSchema,
  RpcUiResponseSchema,
  type RpcCommandName,
  type RpcOutput,
  type RpcResponse,
} from "@keel/rpc-client";
import { HANDLERS } from "./commands.ts";
import type { UiBridge } from "./ui-bridge.ts";

const PARENT_CHECK_MS = 1_000;

function write(message: RpcOutput): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function failure(command: string, id: unknown, error: string): RpcResponse {
  return { type: "response", ...(typeof id === "string" ? { id } : {}), command, success: false, error };
}

/** Handles one line: a request, an answer to a question, or something to refuse with an error response. */
async function serve(line: string, runtime: Runtime, bridge: UiBridge): Promise<void> {
  if (line.trim() === "") return;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return write(failure("parse", undefined, `not JSON (${(error as Error).message}); send one JSON object per line`));
  }
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as { id?: unknown; type?: unknown };
  const type = typeof fields.type === "string" ? fields.type : undefined;
  if (type === "extension_ui_response") {
    const parsed = RpcUiResponseSchema.safeParse(raw);
    const problem = parsed.success
      ? bridge.answer(parsed.data)
      : `invalid answer: ${parsed.error.issues.map((i) => `${i.path.join(".") || "answer"}: ${i.message}`).join("; ")}`;
    if (problem) write(failure(type, fields.id, problem));
    return;
  }
  if (!type || !(type in RPC_COMMANDS))
    return write(
      failure(
        type ?? "parse",
        fields.id,
        `${type ? `unknown command "${type}"` : 'a request needs a "type"'}; the commands ` +
          `are ${Object.keys(RPC_COMMANDS).join(", ")}`,
      ),
    );
  const parsed = RpcRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; ");
    return write(failure(type, fields.id, `invalid ${type} request: ${issues}`));
  }
  const request = parsed.data as { id?: string; type: RpcCommandName };
  try {
    const handler = HANDLERS[request.type] as (runtime: Runtime, request: unknown) => Promise<unknown>;
    const data = await handler(runtime, request);
    write({ type: "response", ...(request.id ? { id: request.id } : {}), command: type, success: true, data });
  } catch (error) {
    write(failure(type, request.id, (error as Error).message));
  }
}

export function rpcMode(bridge: UiBridge): Mode {
  return {
    name: "rpc",
    description: "a JSON protocol on stdin and stdout, for programs that drive keel (docs/rpc.md)",
    async run(runtime) {
      const rendering = new EventRendering(() => runtime.ui());
      const offEvents = runtime.events.onAny((type, payload) => {
        const rendered = rendering.lines(type, payload);
        write({ ...eventLine(type, payload), ...(rendered && { rendered }) });
      });
      bridge.open(write);
      const lines = new LineSplitter();
      const parent = process.ppid;
      await new Promise<void>((resolve) => {
        const end = () => {
          clearInterval(watch);
          process.stdin.off("data", onData);
          resolve();
        };
        const onData = (chunk: Buffer) => {
          for (const line of lines.push(chunk)) void serve(line, runtime, bridge);
        };
        const watch = setInterval(() => process.ppid !== parent && end(), PARENT_CHECK_MS);
        watch.unref();
        process.stdin.on("data", onData);
        process.stdin.once("end", () => {
          const last = lines.end();
          if (last) void serve(last, runtime, bridge);
          end();
        });
        // A reader that went away: nothing can be told any more.
        process.stdout.once("error", end);
      });
      bridge.close();
      runtime.abort();
      await runtime.waitForIdle();
      offEvents();
      return 0;
    },
  };
}
