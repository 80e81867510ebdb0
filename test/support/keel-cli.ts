/**
 * Runs the real `keel` binary in a child process, with its own KEEL_HOME, and collects what it printed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./plugin-fixtures.ts";

export const KEEL_BIN = fileURLToPath(new URL("../../bin/keel.cjs", import.meta.url));

export interface KeelRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface KeelEnv {
  cwd: string;
  home: string;
}

/** A fresh workspace and KEEL_HOME; `script` is written to the workspace as turns.json. */
export function keelEnv(options: { files?: Record<string, string>; script?: unknown[] } = {}): KeelEnv {
  const root = tempDir("keel-cli-");
  const cwd = join(root, "work");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), content);
  }
  if (options.script) writeFileSync(join(cwd, "turns.json"), JSON.stringify(options.script));
  return { cwd, home };
}

/** Settings that select the scripted model playing the workspace's turns.json. */
export const SCRIPTED = ["--provider", "scripted", "--settings", '{"provider-scripted":{"script":"turns.json"}}'];

/**
 * `prefix`: a command the binary runs under, e.g. `setpriv --reuid …` to run it as another user. `bin`: another
 * command's script instead of keel's (a built distribution's `bin/<command>.cjs`). `stdin: "ignore"`: stdin is
 * /dev/null (a file, as benchmarks and many CI runners give), instead of a pipe that gets `input`.
 */
export function runKeel(
  args: string[],
  env: KeelEnv,
  options: {
    extraEnv?: Record<string, string>;
    input?: string;
    timeoutMs?: number;
    prefix?: string[];
    bin?: string;
    stdin?: "pipe" | "ignore";
  } = {},
): Promise<KeelRun> {
  return new Promise((resolve, reject) => {
    const [program, ...argv] = [...(options.prefix ?? []), process.execPath, options.bin ?? KEEL_BIN, ...args];
    const child = spawn(program!, argv, {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home, ...options.extraEnv },
      stdio: [options.stdin ?? "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(options.input ?? "");
  });
}
