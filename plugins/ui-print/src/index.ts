/**
 * ui-print: the non-interactive modes. `text` (keel -p) prints the final answer; `json` prints every event
 * as one JSON line, for scripts and other programs. Both exit non-zero when the run did not end normally.
 */
import { definePlugin, type Runtime, type RunResult } from "@keel/extensions-api";

async function runPrompt(runtime: Runtime, prompt: string): Promise<RunResult | "command"> {
  if (prompt.startsWith("/") && (await runtime.runCommand(prompt))) return "command";
  return runtime.prompt(prompt);
}

function needPrompt(mode: string): number {
  process.stderr.write(`keel: the ${mode} mode needs a prompt: keel -p "<prompt>"${mode === "json" ? " --mode json" : ""}\n`);
  return 2;
}

export default definePlugin({
  activate(api) {
    api.registerMode({
      name: "text",
      description: "print the final answer (keel -p)",
      async run(runtime, { prompt }) {
        if (!prompt) return needPrompt("text");
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
        runtime.events.onAny((type, payload) => void process.stdout.write(`${JSON.stringify({ type, ...payload })}\n`));
        const result = await runPrompt(runtime, prompt);
        return result === "command" || result.reason === "stop" ? 0 : 1;
      },
    });
  },
});
