/**
 * A redis-server of the test's own, on 127.0.0.1 on a free port, with a temp folder and nothing saved to disk.
 * Debian's redis-server (`apt-get install redis-server`; .ci/run installs it).
 */
import { spawn } from "node:child_process";
import { closedPort } from "../../../../test/support/closed-port.ts";
import { tempDir } from "../../../../test/support/plugin-fixtures.ts";

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await closedPort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", tempDir("keel-redis-")];
  const child = spawn("redis-server", [...args, "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.on("error", (error) =>
      reject(new Error(`redis-server could not start (${error.message}): apt-get install redis-server`)),
    );
    child.on("close", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
