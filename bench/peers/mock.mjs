// The model every agent talks to: a server on 127.0.0.1 that answers at once in whichever wire format the request
// used, rendered by the repo's mock LLM (libs/provider-kit/src/mock-llm). Unlike that server's fixed script, the
// reply is chosen from the request itself, because peers send side requests (titles, quota probes) between the
// turns: a request that offers a shell tool and carries fewer than `toolTurns` tool results gets one more shell
// call (`echo`), anything else gets text. Requests that offer the shell tool are the "turns" the bench times.
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";

const root = fileURLToPath(new URL("../..", import.meta.url));
const jiti = createJiti(import.meta.url);
/** @type {typeof import("../../libs/provider-kit/src/mock-llm/render.ts")} */
const { render } = await jiti.import(join(root, "libs/provider-kit/src/mock-llm/render.ts"));
/** @type {typeof import("../../libs/provider-kit/src/mock-llm/server.ts")} */
const { formatOf } = await jiti.import(join(root, "libs/provider-kit/src/mock-llm/server.ts"));

/** Names the agents give their shell tool. */
const SHELL_TOOLS = new Set(["bash", "Bash", "shell", "shell_command", "exec_command", "local_shell"]);
export const ANSWER = "The answer is 4.";

/**
 * One request as the mock saw it.
 * @typedef {object} Seen
 * @property {number} at  arrival, performance.now()
 * @property {string} path
 * @property {number} bytes  body size
 * @property {number} tools  how many tools it offered
 * @property {string[]} toolNames
 * @property {boolean} turn  whether it offered the shell tool
 * @property {number} toolResults  tool results its conversation carried
 */

/** The tools of a request, as `{ name, schema }`, whatever the wire format. */
function toolsOf(body) {
  return (Array.isArray(body?.tools) ? body.tools : []).map((t) => ({
    name: t.function?.name ?? t.name ?? t.type,
    schema: t.function?.parameters ?? t.input_schema ?? t.parameters ?? {},
  }));
}

/** Tool results in the conversation: Chat `tool` messages, Anthropic `tool_result` blocks, Responses outputs. */
function toolResultsIn(body) {
  let n = 0;
  for (const m of body?.messages ?? []) {
    if (m.role === "tool") n++;
    if (Array.isArray(m.content)) n += m.content.filter((b) => b?.type === "tool_result").length;
  }
  for (const item of Array.isArray(body?.input) ? body.input : []) if (/_call_output$/.test(item?.type ?? "")) n++;
  return n;
}

/** Arguments for a shell call that runs `echo`, shaped by the tool's own schema (string, argv array or `cmd`). */
function echoArguments(tool, n) {
  const props = tool.schema?.properties ?? {};
  const line = `echo turn-${n}`;
  if (tool.name === "local_shell") return { command: ["bash", "-lc", line] };
  if (props.cmd) return { cmd: line };
  if (props.command?.type === "array") return { command: ["bash", "-lc", line] };
  return props.description ? { command: line, description: "Print a line" } : { command: line };
}

/** A non-streamed answer (some side requests ask for one). */
function plainJson(format, text, model) {
  if (format === "anthropic")
    return {
      id: "msg_plain",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  return {
    id: "chatcmpl-plain",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/**
 * Starts the mock; `begin(toolTurns)` before each agent run resets what it saw. `answerMs`: how long it takes
 * before it answers a model request, as a model would (0: at once).
 */
export async function startPeerMock({ answerMs = 0 } = {}) {
  /** @type {Seen[]} */
  let seen = [];
  let toolTurns = 0;
  let n = 0;
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks = [];
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const path = (req.url ?? "/").split("?")[0];
      let body;
      try {
        body = JSON.parse(raw.toString("utf8") || "null");
      } catch {
        body = null;
      }
      const tools = toolsOf(body);
      const shell = tools.find((t) => SHELL_TOOLS.has(t.name));
      const toolResults = toolResultsIn(body);
      const toolNames = tools.map((t) => t.name);
      seen.push({ at, path, bytes: raw.length, tools: tools.length, toolNames, turn: Boolean(shell), toolResults });
      if (req.method === "GET" && path.endsWith("/models")) return json(200, { object: "list", data: [] });
      if (path.endsWith("/count_tokens")) return json(200, { input_tokens: Math.ceil(raw.length / 4) });
      const format = formatOf(path);
      if (req.method !== "POST" || format === "unknown") return json(404, { error: { message: `no route ${path}` } });
      const model = String(body?.model ?? "mock-model");
      if (answerMs > 0) return void setTimeout(() => answer(format, body, model, shell, toolResults), answerMs);
      answer(format, body, model, shell, toolResults);
    });
    /** Answers a model request: one more shell call while the run has had fewer than `toolTurns`, else text. */
    function answer(format, body, model, shell, toolResults) {
      const reply =
        shell && toolResults < toolTurns
          ? { toolCalls: [{ name: shell.name, arguments: echoArguments(shell, toolResults + 1) }] }
          : { text: ANSWER };
      if (body?.stream === false) return json(200, plainJson(format, ANSWER, model));
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
      res.end(render(format, reply, model, ++n).events.join(""));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    /** Resets the record and sets how many shell calls the next run gets before the text answer. */
    begin(turns) {
      seen = [];
      toolTurns = turns;
    },
    /** @returns {Seen[]} */
    seen: () => seen,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
