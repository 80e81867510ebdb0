/**
 * The `interactive` mode: a line-by-line chat. Each line is a message (or a `/command`); the answer streams to
 * stdout, tool activity to stderr. A line typed while the agent works steers it; Ctrl-C aborts the run (the
 * CLI's handler); `/exit`, `/quit` or the end of input ends the session. Works the same on a pipe.
 */
import { createInterface } from "node:readline";
import type { Mode, Runtime } from "@keel/extensions-api";
import { showProgress } from "./progress.ts";

async function submit(runtime: Runtime, text: string): Promise<void> {
  if (text.startsWith("/")) {
    if (await runtime.runCommand(text)) return;
    const known = runtime.listCommands().map((c) => c.name);
    process.stderr.write(`Unknown command ${text.split(/\s/)[0]}. ${known.length ? `Commands: ${known.join(", ")}, /exit.` : "Only /exit is available."}\n`);
    return;
  }
  const result = await runtime.prompt(text);
  if (result.reason !== "stop") process.stderr.write(`(the run ended: ${result.reason}${result.errorMessage ? ` — ${result.errorMessage}` : ""})\n`);
}

export const chatMode: Mode = {
  name: "interactive",
  description: "a line-by-line chat: type a message or a /command; typing while it works steers it; /exit ends",
  run(runtime, { prompt }) {
    showProgress(runtime);
    runtime.events.on("message_update", ({ delta }) => void (delta.type === "text_delta" && process.stdout.write(delta.delta)));
    runtime.events.on("message_end", ({ message }) => void (message.role === "assistant" && message.content.some((b) => b.type === "text") && process.stdout.write("\n")));
    runtime.events.on("notice", (n) => void process.stderr.write(`${n.message}\n`));
    const ask = () => void (process.stdin.isTTY && process.stdout.write("> "));

    const input = createInterface({ input: process.stdin, terminal: false });
    let work = prompt ? submit(runtime, prompt) : Promise.resolve();
    void work.then(ask);
    return new Promise<number>((resolve) => {
      input.on("line", (line) => {
        const text = line.trim();
        if (text === "") return;
        if (text === "/exit" || text === "/quit") return void input.close();
        if (runtime.isRunning && !text.startsWith("/")) {
          runtime.steer(text);
          process.stderr.write("(it will read this at its next step)\n");
          return;
        }
        work = work.then(() => submit(runtime, text)).then(ask);
      });
      input.on("close", () => void work.then(() => resolve(0)));
    });
  },
};
