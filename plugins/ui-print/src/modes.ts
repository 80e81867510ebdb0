/** The `text` mode (keel -p: the final answer) and the `json` mode (every event as a JSON line). */
import { textOf, type EventPayloads, type Mode, type RunEnd, type Runtime, type RunResult } from "@keel/extensions-api";
import { EventRendering } from "@keel/extensions-api/render";
import { showProgress } from "./progress.ts";

/**
 * Runs the prompt, or the command it names. A command that runs a prompt of its own (a template, a skill, an
 * MCP prompt) answers with that run: its last run is the result, printed like a prompt's.
 */
async function runPrompt(runtime: Runtime, prompt: string): Promise<RunResult | "command"> {
  if (!prompt.startsWith("/")) return runtime.prompt(prompt);
  let last: RunEnd | undefined;
  const off = runtime.events.on("agent_end", (end) => void (last = end));
  try {
    if (!(await runtime.runCommand(prompt))) return runtime.prompt(prompt);
  } finally {
    off();
  }
  const end = last as RunEnd | undefined;
  if (!end) return "command";
  const answer = [...end.messages].reverse().find((m) => m.role === "assistant");
  return { ...end, finalText: answer ? textOf(answer) : "" };
}

/**
 * One event as a JSON object. A message_update carries only its delta: repeating the partial message on every
 * delta would make the output grow with the square of the reply; message_end carries the whole message.
 */
function jsonLine(type: string, payload: object): object {
  if (type !== "message_update") return { type, ...payload };
  const { partial: _partial, ...delta } = (payload as EventPayloads["message_update"]).delta;
  return { type, delta };
}

function needPrompt(mode: string, runtime: Runtime): number {
  const keel = runtime.app.command;
  process.stderr.write(
    `${keel}: the ${mode} mode needs a prompt: ${keel} -p "<prompt>"${mode === "json" ? " --mode json" : ""}\n`,
  );
  return 2;
}

/** `text`; `progress` shows tool activity on stderr. */
export function textMode(progress: boolean): Mode {
  return {
    name: "text",
    description: "print the final answer (keel -p)",
    async run(runtime, { prompt }) {
      if (!prompt) return needPrompt("text", runtime);
      if (progress) showProgress(runtime);
      runtime.events.on(
        "notice",
        (n) => void process.stderr.write(`${n.level === "info" ? "" : `${n.level}: `}${n.message}\n`),
      );
      runtime.events.on(
        "retry_start",
        (r) =>
          void process.stderr.write(
            `${runtime.app.command}: ${r.provider} ${r.reason}; retry ${r.attempt}/${r.maxAttempts} ` +
              `in ${Math.round(r.delayMs / 100) / 10} s\n`,
          ),
      );
      const result = await runPrompt(runtime, prompt);
      if (result === "command") return 0;
      if (result.finalText)
        process.stdout.write(result.finalText.endsWith("\n") ? result.finalText : `${result.finalText}\n`);
      if (result.reason === "stop") return 0;
      process.stderr.write(
        `${runtime.app.command}: the run ended (${result.reason})` +
          `${result.errorMessage ? `: ${result.errorMessage}` : ""}\n`,
      );
      return 1;
    },
  };
}

export const jsonMode: Mode = {
  name: "json",
  description: "print every event as one JSON line",
  async run(runtime, { prompt }) {
    if (!prompt) return needPrompt("json", runtime);
    // What plugins render for an event, as plain lines (`rendered`): programs reading the JSON may show these.
    const rendering = new EventRendering(() => runtime.ui());
    runtime.events.onAny((type, payload) => {
      const rendered = rendering.lines(type, payload);
      const line = jsonLine(type, payload);
      process.stdout.write(`${JSON.stringify(rendered ? { ...line, rendered } : line)}\n`);
    });
    const result = await runPrompt(runtime, prompt);
    return result === "command" || result.reason === "stop" ? 0 : 1;
  },
};
