/**
 * Starts a built distribution's command in a child process that shares this terminal, and answers with its
 * exit code. A child, not this process: the agent must boot with its own plugins, settings and home. It gets this
 * process's Node flags (as `fork` would give them): the launcher's shebang flags (`--max-semi-space-size`) when
 * keel ran as a command, and the V8 code caches they share are accepted only under the flags they were made with.
 */
import { spawn } from "node:child_process";

export function runBuilt(bin: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, bin, ...args], { cwd, stdio: "inherit" });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward("SIGINT");
    const onTerm = forward("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(code ?? (signal === "SIGINT" ? 130 : 143));
    });
  });
}
