/**
 * Runs one job as its own `keel -p --mode json` process (README.md says why a process and not the batch's own):
 * the prompt on stdin, the batch's flags and the settings layers on the command line, the turn budget as
 * `loop.maxSteps`. The token and time budgets are watched here, from the events: a task past one is stopped
 * with SIGTERM (keel aborts the run and shuts down cleanly), and killed if it has not ended after the grace.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { emptyUsage } from "@keel/extensions-api";
import { distributionCommand, type AgentCommand } from "./agent-command.ts";
import type { Job } from "./job.ts";
import type { TaskEndReason, TaskResult } from "./result.ts";
import { RunTally } from "./run-tally.ts";
import { findSessionFile } from "./session-file.ts";
import { prepareWorkspace } from "./workspace.ts";

const ORPHAN_GUARD = fileURLToPath(new URL("../src/orphan-guard.cjs", import.meta.url));
const STDERR_KEPT = 4000;

export interface RunnerOptions {
  /** The agent of tasks that name no distribution: the one running the batch. */
  agent: AgentCommand;
  /** Where git workspaces are cloned. */
  workDir: string;
  graceMs: number;
  /** Aborting it stops the task (SIGTERM); its result then has the reason `aborted`. */
  signal?: AbortSignal;
}

export async function runJob(job: Job, options: RunnerOptions): Promise<TaskResult> {
  const started = Date.now();
  const failed = (reason: TaskEndReason, error: string, workspace?: string): TaskResult => ({
    id: job.id,
    reason,
    finalText: "",
    usage: emptyUsage(),
    cost: 0,
    turns: 0,
    durationMs: Date.now() - started,
    ...(workspace ? { workspace } : {}),
    error,
  });
  let agent: AgentCommand;
  let cwd: string;
  try {
    agent = job.distribution ? distributionCommand(job.distribution) : options.agent;
    cwd = await prepareWorkspace(job, options.workDir);
  } catch (error) {
    return failed("setup_error", (error as Error).message);
  }
  const tally = new RunTally();
  const outcome = await watchChild(job, agent, cwd, tally, options);
  const ending = tally.ending;
  const reason: TaskEndReason =
    outcome.stoppedFor ??
    (ending ? (ending.reason === "max_steps" && job.budget.turns ? "budget_turns" : ending.reason) : "crashed");
  const error =
    outcome.stoppedFor === "budget_tokens"
      ? `used ${tally.tokens} tokens, over its budget of ${job.budget.tokens}`
      : outcome.stoppedFor === "budget_seconds"
        ? `ran past its budget of ${job.budget.seconds} s`
        : outcome.stoppedFor === "aborted"
          ? "stopped: the batch or worker was interrupted"
          : !ending
            ? `keel ended (${outcome.exit}) without finishing the run: ${outcome.stderr.trim() || "it printed nothing"}`
            : ending.errorMessage;
  const sessionFile =
    tally.sessionId && tally.cwd ? findSessionFile(agent.home, tally.cwd, tally.sessionId) : undefined;
  return {
    id: job.id,
    reason,
    finalText: ending?.finalText ?? "",
    usage: tally.usage,
    cost: tally.usage.cost.total,
    turns: tally.turns,
    durationMs: Date.now() - started,
    workspace: cwd,
    ...(tally.sessionId ? { sessionId: tally.sessionId } : {}),
    ...(sessionFile ? { sessionFile } : {}),
    ...(reason !== "stop" && error ? { error } : {}),
  };
}

interface ChildOutcome {
  /** Set when this side stopped it: a budget, or the signal. */
  stoppedFor?: "budget_tokens" | "budget_seconds" | "aborted";
  /** `code N` or `signal S`. */
  exit: string;
  stderr: string;
}

function watchChild(
  job: Job,
  agent: AgentCommand,
  cwd: string,
  tally: RunTally,
  options: RunnerOptions,
): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, "--require", ORPHAN_GUARD, agent.bin, ...argsOf(job)], {
      cwd,
      env: process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stoppedFor: ChildOutcome["stoppedFor"];
    let killTimer: NodeJS.Timeout | undefined;
    // A run that has already ended keeps its own reason: the process is only stopped (it may hang shutting down).
    const stop = (why: NonNullable<ChildOutcome["stoppedFor"]>) => {
      if (killTimer) return;
      if (!tally.ending) stoppedFor = why;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), options.graceMs);
    };
    const budget = job.budget;
    const deadline = budget.seconds ? setTimeout(() => stop("budget_seconds"), budget.seconds * 1000) : undefined;
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      for (let at = pending.indexOf("\n"); at >= 0; at = pending.indexOf("\n")) {
        tally.add(pending.slice(0, at));
        pending = pending.slice(at + 1);
        if (budget.tokens !== undefined && !tally.ending && tally.tokens > budget.tokens) stop("budget_tokens");
      }
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    // A child that ends before reading its prompt closes the pipe: that is its exit to report, not an error.
    child.stdin.on("error", () => undefined);
    child.stdin.end(job.prompt);
    let finished = false;
    const finish = (exit: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pending) tally.add(pending);
      resolve({ ...(stoppedFor ? { stoppedFor } : {}), exit, stderr });
    };
    child.on("error", (error) => finish(`not started: ${error.message}`));
    child.on("close", (code, signal) => finish(signal ? `signal ${signal}` : `code ${code}`));
  });
}

/** `-p` with the prompt on stdin (any length, and never read as an option); values inline (`--x=v`). */
function argsOf(job: Job): string[] {
  const args = ["-p", "--mode=json"];
  for (const [flag, value] of Object.entries(job.flags)) if (value !== undefined) args.push(`--${flag}=${value}`);
  for (const layer of job.settings) args.push(`--settings=${JSON.stringify(layer)}`);
  if (job.budget.turns) args.push(`--settings=${JSON.stringify({ loop: { maxSteps: job.budget.turns } })}`);
  return args;
}
