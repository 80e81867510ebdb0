/**
 * The operator's check before activation (`marketplace.verifyCommand`): a scanner or review step run on the
 * staged, unpacked package (its dependencies installed) before it is swapped in. It fails closed: a non-zero
 * exit, a crash (a signal), a command that cannot start and one that outlives its time all refuse the install,
 * and the staging folder is deleted with everything in it.
 */
import { spawn } from "node:child_process";
import { RefusedError } from "./check.ts";

export interface VerifyCommand {
  /** argv (the folder is appended), or a shell command line (the folder is `$1`). */
  command: string | readonly string[];
  timeoutMs: number;
}

/** The last lines of what the command printed, for the refusal. */
const tail = (text: string) => text.trim().split("\n").slice(-5).join("\n  ");

export function runVerifyCommand(
  verify: VerifyCommand,
  dir: string,
  plugin: { name: string; version: string },
): Promise<void> {
  const [file, args] =
    typeof verify.command === "string"
      ? ["/bin/sh", ["-c", verify.command, "keel-verify", dir]]
      : [verify.command[0]!, [...verify.command.slice(1), dir]];
  const shown = typeof verify.command === "string" ? verify.command : verify.command.join(" ");
  const who = `${plugin.name}@${plugin.version}`;
  const refuse = (why: string, output: string) =>
    new RefusedError(
      `${who} was refused by marketplace.verifyCommand (${shown}): ${why}${output ? `:\n  ${tail(output)}` : ""}\n` +
        "Nothing was installed.",
    );
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn(file, args, {
      cwd: dir,
      // Its own process group, so a timeout ends whatever it started too.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, KEEL_VERIFY_DIR: dir, KEEL_VERIFY_NAME: plugin.name, KEEL_VERIFY_VERSION: plugin.version },
    });
    const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-8192));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, verify.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(refuse(`it could not start (${error.message})`, ""));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) reject(refuse(`it did not finish within ${verify.timeoutMs} ms`, output));
      else if (signal) reject(refuse(`it was killed by ${signal}`, output));
      else if (code !== 0) reject(refuse(`it exited with ${code}`, output));
      else resolve();
    });
  });
}
