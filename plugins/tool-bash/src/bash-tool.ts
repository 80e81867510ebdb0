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
  command: z.string().min(1, "give the command to run").describe("The command, run by bash in the workspace."),
  timeout: z
    .number()
    .positive()
    .max(86_400)
    .optional()
    .describe(
      "Seconds before the command and everything it started are killed (default 120). Not used with background.",
    ),
  background: z
    .boolean()
    .optional()
    .describe(
      "Start it in the background and return an id at once: for servers, watchers and other " +
        "long-running commands. Manage it with the process tool.",
    ),
});

export function bashTool(settings: BashSettings, background: BackgroundProcesses) {
  return defineTool({
    name: "bash",
    label: "Bash",
    description: [
      "Run a bash command in the workspace. Output (stdout and stderr together) keeps its last 2000 " +
        "lines or 50 KB; when cut, the full output is saved to a file the result names. The result " +
        "ends with the exit code.",
      `Stdin is closed and the environment is non-interactive (no pagers, prompts or colours). The ` +
        `command is killed after its timeout (default ${settings.timeoutSeconds} s), with every ` +
        `process it started; anything it leaves running in the background is stopped when it exits.`,
      "For servers and watchers use background: true, then the process tool.",
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
