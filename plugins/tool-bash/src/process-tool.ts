/**
 * The `process` tool: what the model does with background processes — list them, read their new output,
 * wait for one (with a timeout), send it input, kill it.
 */
import { defineTool, z, type ToolResult } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";
import { status, type BackgroundProcess, type BackgroundProcesses } from "./background.ts";

/** Built when the model is first offered the tool (once a background process runs) or calls it. */
export const ProcessParams = lazySchema(() =>
  z.object({
    action: z
      .enum(["list", "read", "wait", "write", "kill"])
      .describe(
        "list: all background processes. read: new output since the last read. wait: until it exits " +
          "or the timeout passes, then new output. write: send input to its stdin. kill: stop it and " +
          "everything it started.",
      ),
    id: z
      .union([z.string(), z.number()])
      .transform(String)
      .optional()
      .describe("The process id that bash({ background: true }) returned; needed by every action but list."),
    timeout: z.number().positive().max(3600).optional().describe("For wait: seconds to wait at most (default 30)."),
    input: z.string().optional().describe('For write: the text to send; include "\\n" to end a line.'),
  }),
);

const DEFAULT_WAIT_SECONDS = 30;

export function processTool(background: BackgroundProcesses) {
  return defineTool({
    name: "process",
    label: "Process",
    // Shown to the model once there is a background process to act on: a first request is smaller without it.
    offered: () => background.list().length > 0,
    description:
      "Manage background processes started with bash({ command, background: true }): list them, " +
      "read their new output, wait for one to exit (with a timeout), send input to its stdin, or " +
      "kill it with every process it started. All are killed when the session ends.",
    parameters: ProcessParams,
    readOnly: false,
    // Every call is bounded by its own `timeout` argument (up to a day), which also kills what it started.
    timeoutMs: Infinity,
    async execute(input, ctx): Promise<ToolResult> {
      if (input.action === "list")
        return { content: listText(background.list()), details: { processes: background.list().map(summary) } };
      if (input.id === undefined)
        throw new Error(
          `The "${input.action}" action needs the id of a background process; process({ action: "list" }) shows them.`,
        );
      const id = input.id;
      const proc = background.get(id);
      switch (input.action) {
        case "read":
          return report(proc, "");
        case "wait": {
          const seconds = input.timeout ?? DEFAULT_WAIT_SECONDS;
          const exited = await background.wait(id, seconds * 1000, ctx.signal);
          const note = exited
            ? ""
            : ctx.signal.aborted
              ? "[Stopped waiting: the run was aborted.]"
              : `[Still running after waiting ${seconds} s.]`;
          return report(proc, note);
        }
        case "write": {
          if (input.input === undefined)
            throw new Error('The "write" action needs input: the text to send (add "\\n" to end a line).');
          background.write(id, input.input);
          return {
            content:
              `Sent ${Buffer.byteLength(input.input)} bytes to process ${id}. ` + "Use read or wait to see its answer.",
            details: summary(proc),
          };
        }
        case "kill": {
          await background.kill(id);
          return report(proc, "[Killed, with every process it started.]");
        }
      }
    },
  });

  function report(proc: BackgroundProcess, note: string): ToolResult {
    const shown = background.readNew(proc.id);
    const lines = [
      `Process ${proc.id} (${status(proc)}, pid ${proc.pid ?? "?"}): ${proc.command}`,
      shown.text.length > 0 ? shown.text : "(no new output)",
    ];
    if (shown.note) lines.push(shown.note);
    if (note) lines.push(note);
    return { content: lines.join("\n"), details: summary(proc) };
  }
}

function summary(p: BackgroundProcess) {
  return {
    id: p.id,
    pid: p.pid,
    command: p.command,
    status: status(p),
    exitCode: p.exit?.code ?? null,
    logPath: p.logPath,
  };
}

function listText(processes: BackgroundProcess[]): string {
  if (processes.length === 0) return "No background processes. Start one with bash({ command, background: true }).";
  const now = Date.now();
  return processes
    .map((p) => `${p.id}\tpid ${p.pid ?? "?"}\t${status(p)}\t${Math.round((now - p.startedAt) / 1000)} s\t${p.command}`)
    .join("\n");
}
