/**
 * The mode that runs the session (`--mode`, `-p`'s text, else the default for this terminal): loaded, given the
 * process's stdout, and run with Ctrl-C aborting the run and TERM shutting the session down cleanly.
 */
import type { SessionEndReason } from "@keel/extensions-api";
import type { Containment } from "../host/containment.js";
import type { KeelRuntime } from "../runtime/runtime.js";
import { defaultMode, LINE_MODE, TUI_MODE } from "./default-mode.js";

export async function runMode(
  runtime: KeelRuntime,
  opts: Record<string, unknown>,
  words: string[],
  err: (t: string) => void,
  containment: Containment,
  ending: { reason: SessionEndReason },
  name: string,
): Promise<number> {
  let prompt = typeof opts.print === "string" ? opts.print : words.length > 0 ? words.join(" ") : undefined;
  if (prompt === undefined && opts.print === true && !process.stdin.isTTY) prompt = await readStdin();
  const tuiInstalled =
    runtime.contributions.modes.get(TUI_MODE) !== undefined || runtime.host.waitsFor("modes", TUI_MODE);
  const modeName =
    typeof opts.mode === "string" ? opts.mode : opts.print !== undefined ? "text" : defaultMode(tuiInstalled);
  await runtime.host.activateFor("modes", modeName);
  const mode = runtime.contributions.modes.get(modeName);
  if (!mode) {
    const installed = runtime
      .listPlugins()
      .filter((p) => p.state !== "failed" && p.state !== "disabled")
      .flatMap((p) => p.contributes.modes);
    const hint = modeName === LINE_MODE ? ` Run with -p "<prompt>" to print an answer.` : "";
    err(
      `${name}: no "${modeName}" mode is ` +
        `installed${installed.length ? ` (installed: ${installed.join(", ")})` : ""}.${hint}\n`,
    );
    return 2;
  }
  containment.setStdoutOwner(mode.owner);
  // Ctrl-C aborts the run (a second one, or one while idle, exits). TERM aborts and shuts down cleanly, so
  // plugins still stop what they started (background processes, locks) before the process goes.
  // Idle, it is the user leaving: the session still ends properly (session_end, background processes).
  const onInterrupt = () =>
    runtime.isRunning ? runtime.abort() : void runtime.shutdown("exit").finally(() => process.exit(130));
  const onTerminate = () => {
    runtime.abort();
    void runtime.shutdown("signal").finally(() => process.exit(143));
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  try {
    // The mode is the session's UI, so it can show the model from the start (the session starts on first use).
    await runtime.pickModel();
    const code = await mode.item.run(runtime, { prompt });
    // An interactive mode returns when the user leaves it (/exit, end of input); any other mode has finished.
    ending.reason = modeName === "interactive" ? "exit" : "completed";
    return code;
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onTerminate);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}
