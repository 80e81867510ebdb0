/**
 * ui-print: the non-interactive modes. `text` (keel -p) prints the final answer; `json` prints every event
 * as one JSON line, for scripts and other programs. Both exit non-zero when the run did not end normally.
 */
import { definePlugin, z, type EventPayloads, type Runtime, type RunResult } from "@keel/extensions-api";

const Settings = z.object({
  /** Tool activity on stderr in text mode: `auto` when stderr is a terminal. */
  progress: z.enum(["auto", "always", "never"]).default("auto"),
}).default({ progress: "auto" });

/** One short line per tool call (`● read src/math.ts`) and the first line of its result. */
function showProgress(runtime: Runtime): void {
  runtime.events.on("tool_execution_start", (e) => {
    const input = e.input && typeof e.input === "object" ? (e.input as Record<string, unknown>) : {};
    const first = Object.values(input).find((v) => typeof v === "string") as string | undefined;
    const detail = first ? ` ${first.split("\n")[0]!.slice(0, 80)}` : "";
    process.stderr.write(`● ${e.toolName}${detail}\n`);
  });
  runtime.events.on("tool_execution_end", (e) => {
    const text = e.result.content.find((c) => c.type === "text");
    const first = text && text.type === "text" ? (text.text.split("\n").find((line) => line.trim() !== "") ?? "") : "";
    const shown = first.length > 100 ? `${first.slice(0, 99)}…` : first;
    process.stderr.write(e.isError ? `  ✗ ${shown || "failed"}\n` : shown ? `  ⎿ ${shown}\n` : "");
  });
}

async function runPrompt(runtime: Runtime, prompt: string): Promise<RunResult | "command"> {
  if (prompt.startsWith("/") && (await runtime.runCommand(prompt))) return "command";
  return runtime.prompt(prompt);
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

function needPrompt(mode: string): number {
  process.stderr.write(`keel: the ${mode} mode needs a prompt: keel -p "<prompt>"${mode === "json" ? " --mode json" : ""}\n`);
  return 2;
}

export default definePlugin({
  settings: Settings,
  activate(api) {
    const progress = api.settings.progress === "always" || (api.settings.progress === "auto" && process.stderr.isTTY);
    api.registerMode({
      name: "text",
      description: "print the final answer (keel -p)",
      async run(runtime, { prompt }) {
        if (!prompt) return needPrompt("text");
        if (progress) showProgress(runtime);
        runtime.events.on("notice", (n) => void process.stderr.write(`${n.level === "info" ? "" : `${n.level}: `}${n.message}\n`));
        runtime.events.on("retry_start", (r) => void process.stderr.write(`keel: ${r.provider} ${r.reason}; retry ${r.attempt}/${r.maxAttempts} in ${Math.round(r.delayMs / 100) / 10} s\n`));
        const result = await runPrompt(runtime, prompt);
        if (result === "command") return 0;
        if (result.finalText) process.stdout.write(result.finalText.endsWith("\n") ? result.finalText : `${result.finalText}\n`);
        if (result.reason === "stop") return 0;
        process.stderr.write(`keel: the run ended (${result.reason})${result.errorMessage ? `: ${result.errorMessage}` : ""}\n`);
        return 1;
      },
    });

    api.registerMode({
      name: "json",
      description: "print every event as one JSON line",
      async run(runtime, { prompt }) {
        if (!prompt) return needPrompt("json");
        runtime.events.onAny((type, payload) => void process.stdout.write(`${JSON.stringify(jsonLine(type, payload))}\n`));
        const result = await runPrompt(runtime, prompt);
        return result === "command" || result.reason === "stop" ? 0 : 1;
      },
    });
  },
});
