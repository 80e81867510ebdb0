/**
 * The `bash` tool: runs a command in the workspace and returns its output tail and exit code, or, with
 * `background: true`, starts it and returns an id for the `process` tool.
 */
import { defineTool, z, type ToolResult } from "@keel/extensions-api";
import type { BackgroundProcesses } from "./background.ts";
import { bashRenderer } from "./render.ts";
import { runForeground } from "./run-foreground.ts";
import type { BashSettings } from "./settings.ts";

export const BashParams = z.object({
  command: z.string().min(1, "give the command to run"),
  timeout: z.number().positive().max(86_400).optional().describe("Seconds"),
  background: z
    .boolean()
    .optional()
    .describe("For servers and watchers: start it, return an id at once; then use the process tool"),
});

export function bashTool(settings: BashSettings, background: BackgroundProcesses) {
  return defineTool({
    name: "bash",
    label: "Bash",
    description: [
      "Run a bash command in the workspace; stdin closed, non-interactive (no pagers, prompts, colours). Returns the",
      "exit code and the last 2000 lines or 50 KB of stdout and stderr together (when cut, the whole is saved to a",
      `file the result names). Killed with all it started after its timeout (default ${settings.timeoutSeconds} s);`,
      "what it leaves running is stopped when it exits.",
    ].join(" "),
    parameters: BashParams,
    readOnly: false,
    // Every call is bounded by its own `timeout` argument (up to a day), which also kills what it started.
    timeoutMs: Infinity,
    render: bashRenderer,
    async execute(input, ctx): Promise<ToolResult> {
      if (!input.background)
        return runForeground(input.command, input.timeout ?? settings.timeoutSeconds, settings, ctx);
      const proc = background.start(input.command, ctx.ops, ctx.dataDir);
      return {
        content:
          `Started background process ${proc.id} ` +
          `(pid ${proc.pid ?? "?"}): ${input.command}\nUse the process tool with id "${proc.id}" to ` +
          `read its output, wait for it, send it input or kill it. It is killed when the session ` +
          `ends. Full log: ${proc.logPath}`,
        details: { background: true, id: proc.id, pid: proc.pid, logPath: proc.logPath },
      };
    },
  });
}
