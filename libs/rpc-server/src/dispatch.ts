/**
 * One message from a client, served: a request runs its command and gets its response; an answer to a question
 * goes to the bridge (a response only when it fits no open question); anything else gets a failed response
 * that says what was wrong. The transport sends what comes back; framing is its own (lines, socket messages).
 */
import type { Runtime } from "@keel/extensions-api";
import {
  RPC_COMMANDS,
  RpcRequestSchema,
  RpcUiResponseSchema,
  type RpcCommandName,
  type RpcResponse,
} from "@keel/rpc-client/protocol";
import { HANDLERS } from "./handlers.ts";
import type { UiBridge } from "./ui-bridge.ts";

function failure(command: string, id: unknown, error: string): RpcResponse {
  return { type: "response", ...(typeof id === "string" ? { id } : {}), command, success: false, error };
}

/** Serves one message's text; resolves the response to send, or undefined when none is due. */
export async function serveMessage(text: string, runtime: Runtime, bridge: UiBridge): Promise<RpcResponse | undefined> {
  if (text.trim() === "") return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return failure("parse", undefined, `not JSON (${(error as Error).message}); send one JSON object per message`);
  }
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as { id?: unknown; type?: unknown };
  const type = typeof fields.type === "string" ? fields.type : undefined;
  if (type === "extension_ui_response") {
    const parsed = RpcUiResponseSchema.safeParse(raw);
    const problem = parsed.success
      ? bridge.answer(parsed.data)
      : `invalid answer: ${parsed.error.issues.map((i) => `${i.path.join(".") || "answer"}: ${i.message}`).join("; ")}`;
    return problem ? failure(type, fields.id, problem) : undefined;
  }
  if (!type || !(type in RPC_COMMANDS))
    return failure(
      type ?? "parse",
      fields.id,
      `${type ? `unknown command "${type}"` : 'a request needs a "type"'}; the commands ` +
        `are ${Object.keys(RPC_COMMANDS).join(", ")}`,
    );
  const parsed = RpcRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; ");
    return failure(type, fields.id, `invalid ${type} request: ${issues}`);
  }
  const request = parsed.data as { id?: string; type: RpcCommandName };
  try {
    const handler = HANDLERS[request.type] as (runtime: Runtime, request: unknown) => Promise<unknown>;
    const data = await handler(runtime, request);
    return { type: "response", ...(request.id ? { id: request.id } : {}), command: type, success: true, data };
  } catch (error) {
    return failure(type, request.id, (error as Error).message);
  }
}
