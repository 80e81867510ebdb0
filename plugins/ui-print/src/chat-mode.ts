/**
 * The `interactive` mode: a line-by-line chat. Each line is a message (or a `/command`); the answer streams to
 * stdout, tool activity to stderr. On a terminal a line typed while the agent works steers it; on a pipe the
 * next line waits for the run to end, so a question asked during the run (`ui_request`) reads its answer from
 * the pipe in order. Ctrl-C aborts the run (the CLI's handler); `/exit`, `/quit` or the end of input ends the
 * session.
 */
import type { Mode, Runtime } from "@keel/extensions-api";
import type { LineInput } from "./line-input.ts";
import { uiSummary } from "./plain.ts";
import { showProgress } from "./progress.ts";

async function submit(runtime: Runtime, text: string): Promise<void> {
  if (text.startsWith("/")) {
    if (await runtime.runCommand(text)) return;
    const known = runtime.listCommands().map((c) => c.name);
    process.stderr.write(
      `Unknown command ${text.split(/\s/)[0]}. ${
        known.length ? `Commands: ${known.join(", ")}, /exit.` : "Only /exit is available."
      }\n`,
    );
    return;
  }
  const result = await runtime.prompt(text);
  // Plugins' widgets and status entries, as plain text: the chat's stand-in for the terminal UI's panels.
  const summary = uiSummary(runtime);
  if (summary.length) process.stderr.write(`${summary.join("\n")}\n`);
  if (result.reason !== "stop")
    process.stderr.write(
      `(the run ended: ${result.reason}${result.errorMessage ? ` — ${result.errorMessage}` : ""})\n`,
    );
}

const isExit = (text: string) => text === "/exit" || text === "/quit";

/** The first lines on a terminal: program, model, folder, session, and how to get help. */
function banner(runtime: Runtime): string {
  const model = runtime.model ? `${runtime.model.provider}/${runtime.model.id}` : "no model";
  const name = `${runtime.app.command}${runtime.app.version ? ` ${runtime.app.version}` : ""}`;
  const session = runtime.sessionId.slice(0, 8);
  return `${name} · ${model} · ${runtime.cwd} · session ${session}\n/help lists the commands; /exit ends.\n`;
}

/** The chat over `input`; `session.active` is true while it runs (its questions are answered only then). */
export function chatMode(input: LineInput, session: { active: boolean }): Mode {
  return {
    name: "interactive",
    description: "a line-by-line chat: type a message or a /command; typing while it works steers it; /exit ends",
    async run(runtime, { prompt }) {
      showProgress(runtime);
      runtime.events.on(
        "message_update",
        ({ delta }) => void (delta.type === "text_delta" && process.stdout.write(delta.delta)),
      );
      runtime.events.on(
        "message_end",
        ({ message }) =>
          void (
            message.role === "assistant" &&
            message.content.some((b) => b.type === "text") &&
            process.stdout.write("\n")
          ),
      );
      runtime.events.on("notice", (n) => void process.stderr.write(`${n.message}\n`));
      const terminal = process.stdin.isTTY === true;
      if (terminal) process.stderr.write(banner(runtime));
      // A missing key or an unreachable server, told with its fix at start rather than after the first message;
      // the chat does not wait for it, only its end does (so a short piped chat still shows it).
      const checked = runtime.modelProblem({ probe: true }).then((p) => void (p && process.stderr.write(`${p}\n`)));
      // One read of the chat's next line at a time: a read started during a run may finish after it.
      let pending: Promise<string | undefined> | undefined;
      const nextLine = () => (pending ??= input.next().finally(() => (pending = undefined)));
      const later: string[] = [];
      let exiting = false;

      /** Runs one line; on a terminal, lines typed meanwhile steer the run (commands wait for its end). */
      const work = async (text: string) => {
        const run = submit(runtime, text);
        if (!terminal) return run;
        const ended = run.then(() => undefined);
        for (;;) {
          const line = await Promise.race([nextLine().then((l) => ({ l })), ended]);
          if (line === undefined || line.l === undefined) break;
          const typed = line.l.trim();
          if (typed === "") continue;
          if (isExit(typed)) exiting = true;
          else if (typed.startsWith("/")) later.push(typed);
          else {
            runtime.steer(typed);
            process.stderr.write("(it will read this at its next step)\n");
          }
        }
        return run;
      };

      session.active = true;
      try {
        if (prompt) await work(prompt);
        while (!exiting) {
          const queued = later.shift();
          if (queued !== undefined) {
            await work(queued);
            continue;
          }
          if (terminal) process.stdout.write("> ");
          const line = await nextLine();
          if (line === undefined) break;
          const text = line.trim();
          if (isExit(text)) break;
          if (text !== "") await work(text);
        }
      } finally {
        session.active = false;
        input.close();
        await checked;
      }
      return 0;
    },
  };
}
