/**
 * The folder a task runs in: its own folder, or a fresh clone of a git repository at a ref (every attempt gets
 * its own clone, so a job run again after a worker died starts clean). Only git's ordinary transports are
 * allowed: a tasks file is input from a stranger, and `ext::` would run its command.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Job } from "./job.ts";

const TRANSPORTS = ["file", "https", "http", "ssh", "git"];
const GIT_CONFIG = ["-c", "protocol.allow=never", ...TRANSPORTS.flatMap((t) => ["-c", `protocol.${t}.allow=always`])];

/** Resolves the folder, or rejects with a message naming what was wrong. */
export async function prepareWorkspace(job: Job, workDir: string): Promise<string> {
  const where = job.workspace;
  if ("path" in where) {
    const problem = folderProblem(where.path);
    if (problem) throw new Error(`the workspace ${where.path} ${problem}`);
    return where.path;
  }
  mkdirSync(workDir, { recursive: true });
  const dir = mkdtempSync(join(workDir, `${job.id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60)}-`));
  try {
    await git(["clone", "--quiet", "--no-checkout", "--", where.git, dir], workDir);
    const commit = await resolveRef(dir, where.ref ?? "HEAD");
    await git(["checkout", "--quiet", "--detach", commit], dir);
  } catch (error) {
    throw new Error(`cloning ${where.git}${where.ref ? ` at ${where.ref}` : ""} failed: ${(error as Error).message}`);
  }
  return dir;
}

/** The commit `ref` names in the clone: a commit, a tag, or one of the origin's branches. */
async function resolveRef(dir: string, ref: string): Promise<string> {
  for (const candidate of [ref, `origin/${ref}`]) {
    try {
      return (await git(["rev-parse", "--verify", "--quiet", `${candidate}^{commit}`], dir)).trim();
    } catch {
      // try the next form
    }
  }
  throw new Error(`no commit, tag or branch is named ${ref}`);
}

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...GIT_CONFIG, ...args],
      // Never ask for credentials: there is nobody to answer.
      { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" }, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => (error ? reject(new Error(gitProblem(stderr) || error.message)) : resolve(stdout)),
    );
  });
}

/** git's own words for the failure: its `fatal:` lines, else what it printed. */
function gitProblem(stderr: string): string {
  const lines = stderr.trim().split("\n");
  const fatal = lines.filter((line) => line.startsWith("fatal: ")).map((line) => line.slice(7));
  return (fatal.length > 0 ? fatal : lines).join(" ").trim();
}

function folderProblem(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : "is a file, not a folder";
  } catch {
    return "does not exist";
  }
}
