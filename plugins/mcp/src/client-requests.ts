/**
 * What a connected server may ask of keel: elicitation (the user fills a form, or opens a URL) and sampling
 * (the session's model answers a prompt the server wrote). Both reach the user through `runtime.ask`, in
 * whichever UI runs. With nobody to ask (print mode, CI), elicitation is declined and sampling refused, unless
 * `mcp.sampling` is `allow`: a server must not spend the user's model, or learn what the user would type,
 * without them. Loaded with the SDK when a server starts.
 */
import type { Client, CreateMessageRequestParams, ElicitRequestParams } from "@modelcontextprotocol/client";
import type { Runtime, UserContent } from "@keel/extensions-api";

/** What keel tells servers it can do; the SDK fills omitted form fields with their defaults. */
export const CLIENT_CAPABILITIES = {
  elicitation: { form: { applyDefaults: true }, url: {} },
  sampling: {},
};

export interface RequestHost {
  /** The running session, once there is one. */
  runtime(): Runtime | undefined;
  /** `mcp.sampling`: ask the user each time, allow without asking, or refuse. */
  sampling: "ask" | "allow" | "deny";
}

export function handleServerRequests(client: Client, server: string, host: RequestHost): void {
  client.setRequestHandler("elicitation/create", (request) => elicit(server, request.params, host.runtime()));
  client.setRequestHandler("sampling/createMessage", (request) => sample(server, request.params, host));
}

type Field = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const?: unknown; title?: string }[];
  default?: unknown;
};

type Elicited = { action: "accept"; content?: Record<string, string | number | boolean | string[]> };
type ElicitAnswer = Elicited | { action: "decline" | "cancel" };

async function elicit(
  server: string,
  params: ElicitRequestParams,
  runtime: Runtime | undefined,
): Promise<ElicitAnswer> {
  if (!runtime) return { action: "decline" };
  const title = `MCP server "${server}" asks: ${params.message}`;
  if (params.mode === "url") {
    const open = await runtime.ask({ kind: "confirm", title, message: `It wants you to open ${params.url}` });
    if (open?.kind !== "confirm") return { action: open === undefined ? "decline" : "cancel" };
    return { action: open.confirmed ? "accept" : "decline" };
  }
  const properties = Object.entries((params.requestedSchema.properties ?? {}) as Record<string, Field>);
  const fields = properties.map(([name, field]) => `${field.title ?? name}: ${field.description ?? field.type}`);
  const go = await runtime.ask({ kind: "confirm", title, message: `Answer it? It asks for\n${fields.join("\n")}` });
  if (go?.kind !== "confirm" || !go.confirmed) return { action: "decline" };
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of properties) {
    const value = await askField(runtime, name, field);
    if (value === null) return { action: "cancel" };
    if (value !== undefined) content[name] = value;
  }
  return { action: "accept", content };
}

/** One field's answer; undefined leaves it out (its default applies), null means the user gave up. */
async function askField(
  runtime: Runtime,
  name: string,
  field: Field,
): Promise<string | number | boolean | undefined | null> {
  const label = `${field.title ?? name}${field.description ? ` — ${field.description}` : ""}`;
  const choices = field.enum ?? field.oneOf?.map((option) => option.const);
  if (choices || field.type === "boolean") {
    // The default first, so that taking the first choice keeps it.
    const all = choices ? choices.map(String) : ["true", "false"];
    const preset = field.default === undefined ? undefined : String(field.default);
    const options = preset && all.includes(preset) ? [preset, ...all.filter((o) => o !== preset)] : all;
    const picked = await runtime.ask({ kind: "select", title: label, options });
    if (picked?.kind !== "select") return null;
    return field.type === "boolean" ? picked.value === "true" : picked.value;
  }
  const placeholder = field.default === undefined ? undefined : `${String(field.default)} (Enter keeps it)`;
  const typed = await runtime.ask({ kind: "input", title: label, ...(placeholder ? { placeholder } : {}) });
  if (typed?.kind !== "input") return null;
  if (typed.value === "") return undefined;
  if (field.type === "number" || field.type === "integer") {
    const number = Number(typed.value);
    return Number.isFinite(number) ? number : undefined;
  }
  return typed.value;
}

async function sample(server: string, params: CreateMessageRequestParams, host: RequestHost) {
  const runtime = host.runtime();
  const refuse = (why: string) => {
    throw new Error(`keel did not let MCP server "${server}" use the model: ${why}`);
  };
  if (!runtime) return refuse("no session is running");
  if (host.sampling === "deny") return refuse("mcp.sampling is deny");
  const prompt = params.messages.flatMap((message) => sampledContent(message.content));
  if (host.sampling === "ask") {
    const text = prompt.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
    const answer = await runtime.ask({
      kind: "confirm",
      title: `MCP server "${server}" wants the model to answer a prompt it wrote`,
      message: text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text,
    });
    if (answer?.kind !== "confirm") return refuse("nobody could be asked (set mcp.sampling to allow to let servers)");
    if (!answer.confirmed) return refuse("the user said no");
  }
  const result = await runtime.runSubagent({
    name: `mcp:${server}`,
    systemPrompt: params.systemPrompt ?? "Answer the request.",
    prompt,
    tools: [],
  });
  if (result.reason === "error") return refuse(result.errorMessage ?? "the model failed");
  const last = result.messages.at(-1) as { model?: string } | undefined;
  return {
    model: last?.model ?? "keel",
    role: "assistant" as const,
    content: { type: "text" as const, text: result.finalText },
    stopReason: "endTurn",
  };
}

/** A sampling message's content as a user message's: text and images pass, other blocks are named. */
function sampledContent(content: unknown): UserContent[] {
  const blocks = (Array.isArray(content) ? content : [content]) as { type: string; text?: string }[];
  return blocks.map((block) => {
    if (block.type === "text") return { type: "text", text: block.text ?? "" };
    const image = block as { type: string; data?: string; mimeType?: string };
    if (block.type === "image" && image.data && image.mimeType)
      return { type: "image", data: image.data, mimeType: image.mimeType };
    return { type: "text", text: `[${block.type} content]` };
  });
}
