/**
 * `keel serve` through the real binary, with its own KEEL_HOME and workspace and the scripted model, for a test
 * file to share: resolves once the server printed its address. `stop()` sends SIGTERM and resolves the exit code.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { KEEL_BIN, keelEnv, SCRIPTED, type KeelEnv } from "../../../../test/support/keel-cli.ts";

export interface ServeProcess {
  env: KeelEnv;
  /** The address printed, token included. */
  address: string;
  origin: string;
  token: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<number | null>;
}

export async function startServe(
  options: { script?: unknown[]; files?: Record<string, string>; args?: string[]; env?: Record<string, string> } = {},
): Promise<ServeProcess> {
  const env = keelEnv({ script: options.script ?? [{ text: "hi" }], files: options.files });
  const child = spawn(process.execPath, [KEEL_BIN, "serve", ...SCRIPTED, ...(options.args ?? [])], {
    cwd: env.cwd,
    env: { ...process.env, KEEL_HOME: env.home, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const address = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const found = /open (\S+)\n/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once("exit", (code) => reject(new Error(`keel serve exited (${code}) before listening:\n${stderr}`)));
  });
  const url = new URL(address);
  return {
    env,
    address,
    origin: url.origin,
    token: url.searchParams.get("token")!,
    child,
    stderr: () => stderr,
    stop() {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      return exited;
    },
  };
}
