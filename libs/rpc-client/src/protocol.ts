/**
 * keel's RPC protocol (`keel --mode rpc`), the one catalog of its commands: what a client sends on stdin and
 * what keel answers on stdout, one JSON object per LF-terminated line. The shape is pi's RPC mode's
 * (`{ id, type, … }` requests, `{ type: "response", id, command, success, data | error }` answers), so its
 * clients port easily. The plugin parses requests with these schemas; the client is typed by them; docs/rpc.md
 * describes each command from `RPC_COMMANDS`.
 */
import { z } from "zod";
import type {
  EventName,
  EventPayloads,
  Message,
  ModelInfo,
  SessionTree,
  StreamDelta,
  ThinkingLevel,
} from "@keel/extensions-api";

const THINKING = ["off", "minimal", "low", "medium", "high"] as const satisfies readonly ThinkingLevel[];

const image = z.object({ type: z.literal("image"), data: z.string(), mimeType: z.string() }).strict();
/** A user message: its text, and images for a model that takes them. */
const message = { message: z.string(), images: z.array(image).optional() };
const none = {};

/**
 * Every command: its request fields (beside `id` and `type`) and what it does. Adding one takes a row here, its
 * result type in `RpcResults`, and its handler (`libs/rpc-server/src/handlers.ts`); the compiler refuses a row
 * without the others.
 */
export const RPC_COMMANDS = {
  prompt: {
    fields: { ...message, streamingBehavior: z.enum(["steer", "followUp"]).optional() },
    doc:
      "Starts a run on `message`; answered once accepted, the run's events follow. While a run " +
      "is going it needs `streamingBehavior`: `steer` (enters at the next turn) or `followUp` " +
      "(after the run would stop). A `message` starting with `/` that names a command runs the command instead.",
  },
  steer: { fields: message, doc: "Queues `message` to enter at the start of the next turn of the current run." },
  follow_up: { fields: message, doc: "Queues `message` to start another round after the run would have stopped." },
  abort: { fields: none, doc: "Aborts the current run; answered when the run has stopped." },
  get_state: {
    fields: none,
    doc: "The session's state: model, thinking level, whether a run is going, session id, folder, message count.",
  },
  get_messages: { fields: none, doc: "The whole history of the session." },
  set_model: {
    fields: { provider: z.string().min(1), modelId: z.string().min(1) },
    doc: "Switches the model for the next request; answers the model.",
  },
  get_models: { fields: none, doc: "Every model the installed providers serve (lazy providers are loaded)." },
  set_thinking: {
    fields: { level: z.enum(THINKING).nullable() },
    doc: "Sets the thinking level of the next requests; `null` returns to the flag or setting.",
  },
  compact: {
    fields: { customInstructions: z.string().optional() },
    doc: "Compacts the history now; answers tokens before and after, or `null` when nothing was compacted.",
  },
  new_session: { fields: none, doc: "Starts a new, empty session; answers its id." },
  switch_session: {
    fields: { sessionPath: z.string().min(1) },
    doc: "Resumes another session by id, id prefix or file path (`sessionPath`, pi's name); answers its id.",
  },
  fork: {
    fields: { entryId: z.string().min(1).optional() },
    doc: "Continues in a new session from an entry (id or label; default: the current position); answers its id.",
  },
  get_tree: {
    fields: none,
    doc: "The session tree: every entry with its parent, kind and a one-line preview, and the current leaf.",
  },
  get_commands: { fields: none, doc: "The slash commands plugins offer, with descriptions." },
  run_command: {
    fields: { command: z.string().regex(/^\//, "a command line starts with /") },
    doc: "Runs a `/command args` line; fails when no plugin offers the command.",
  },
} as const;

export type RpcCommandName = keyof typeof RPC_COMMANDS;

type InputOf<T> = T extends z.ZodType ? z.input<T> : never;
/** A command's fields as a client writes them (optional where the schema allows leaving them out). */
type FieldsInput<F> = { [K in keyof F as undefined extends InputOf<F[K]> ? never : K]: InputOf<F[K]> } & {
  [K in keyof F as undefined extends InputOf<F[K]> ? K : never]?: InputOf<F[K]>;
};

/** A request as sent: `type` names the command, `id` (optional) comes back on its response. */
export type RpcRequest = {
  [K in RpcCommandName]: { id?: string; type: K } & FieldsInput<(typeof RPC_COMMANDS)[K]["fields"]>;
}[RpcCommandName];

/** The request of command `K`. */
export type RpcRequestOf<K extends RpcCommandName> = Extract<RpcRequest, { type: K }>;

/** The session's state, as `get_state` answers it. */
export interface RpcState {
  model: ModelInfo | null;
  thinking: ThinkingLevel | null;
  isRunning: boolean;
  sessionId: string;
  cwd: string;
  messageCount: number;
}

/** What each command's successful response carries as `data`. */
export interface RpcResults {
  prompt: null;
  steer: null;
  follow_up: null;
  abort: null;
  get_state: RpcState;
  get_messages: { messages: Message[] };
  set_model: ModelInfo;
  get_models: { models: ModelInfo[] };
  set_thinking: { level: ThinkingLevel | null };
  compact: { tokensBefore: number; tokensAfter: number } | null;
  new_session: { sessionId: string };
  switch_session: { sessionId: string };
  fork: { sessionId: string };
  get_tree: SessionTree;
  get_commands: { commands: { name: string; description: string; plugin: string }[] };
  run_command: null;
}

/** Compile-time check that every command has a result type and nothing else does. */
type Unlisted = Exclude<RpcCommandName, keyof RpcResults> | Exclude<keyof RpcResults, RpcCommandName>;
const _allResults: [Unlisted] extends [never] ? true : never = true;
void _allResults;

/**
 * Where a message stands in its session's stream, over `keel serve`: every event and question carries the next
 * number, and a response the number of the last one sent before its command ran (what it reports includes it).
 * A client that reconnects with the last number it saw receives exactly what came after. Absent on stdio.
 */
export interface Sequenced {
  seq?: number;
}

/** A command's answer. `id` is the request's; `command` its type (`"parse"` for a line that was not a request). */
export type RpcResponse = Sequenced &
  (
    | { type: "response"; id?: string; command: string; success: true; data: unknown }
    | { type: "response"; id?: string; command: string; success: false; error: string }
  );

/** A question a plugin asks the user (`ui_request`), sent to the client with its own id. */
export type RpcUiRequest = Sequenced & { type: "extension_ui_request"; id: string } & (
    | { method: "confirm"; title: string; message?: string }
    | { method: "select"; title: string; options: string[] }
    | { method: "input"; title: string; placeholder?: string }
  );

/** The client's answer to an `extension_ui_request` with the same id; `cancelled` answers nothing. */
export const RpcUiResponseSchema = z
  .object({
    type: z.literal("extension_ui_response"),
    id: z.string(),
    value: z.string().optional(),
    confirmed: z.boolean().optional(),
    cancelled: z.literal(true).optional(),
  })
  .strict();
export type RpcUiResponse = z.output<typeof RpcUiResponseSchema>;

/**
 * One event of the session as a line: its name as `type` and its payload's fields. A `message_update`
 * carries only its delta (the partial message would make the output grow with the square of the reply);
 * `message_end` carries the whole message.
 */
export type RpcEvent = {
  [K in EventName]: { type: K } & (K extends "message_update" ? { delta: DeltaLine } : EventPayloads[K]);
}[EventName] &
  Sequenced & {
    /** What plugins render for the event, as plain lines (a tool's own call or result lines, a plugin's entry). */
    rendered?: string[];
  };

/** A stream delta without its partial message. */
export type DeltaLine = StreamDelta extends infer D ? (D extends unknown ? Omit<D, "partial"> : never) : never;

/**
 * Over `keel serve`, where several clients share a session: a question is no longer open (a client answered it,
 * or the session closed), so the others put it away.
 */
export type RpcUiClosed = Sequenced & { type: "extension_ui_closed"; id: string };

/**
 * Over `keel serve`: the first message on a connection. `seq` is the number of the last message of the session
 * so far. `resumed` says what came after the number the client asked to resume from was replayed; false for a
 * new connection, or when the server no longer keeps (or never sent) what followed it: the client reads the
 * state (`get_messages`, `get_state`), and `questions` are those still open, asked before it came.
 */
export interface RpcWelcome {
  type: "welcome";
  /** The server's id of the session. */
  session: string;
  seq: number;
  resumed: boolean;
  questions?: RpcUiRequest[];
}

/** Everything keel writes on stdout (and, over `keel serve`, on the socket). */
export type RpcOutput = RpcResponse | RpcUiRequest | RpcEvent | RpcUiClosed | RpcWelcome;

/** The request schema: one object per command, told apart by `type`. */
export const RpcRequestSchema = z.discriminatedUnion(
  "type",
  Object.entries(RPC_COMMANDS).map(([type, spec]) =>
    z.object({ id: z.string().optional(), type: z.literal(type), ...spec.fields }).strict(),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** An event as its line object (see `RpcEvent`). */
export function eventLine<K extends EventName>(type: K, payload: EventPayloads[K]): RpcEvent {
  if (type !== "message_update") return { type, ...payload } as RpcEvent;
  const { partial: _partial, ...delta } = (payload as EventPayloads["message_update"]).delta as StreamDelta & {
    partial?: unknown;
  };
  return { type: "message_update", delta: delta as DeltaLine };
}
