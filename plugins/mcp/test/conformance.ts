/**
 * Runs one client scenario of the MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.13; 0.1.14–0.1.16
 * crash on Node 20) against keel's client: the suite starts its server, runs fixtures/conformance-client.mjs (the
 * real binary) with the server's URL, and checks what the client did. Its servers are bound to 127.0.0.1
 * (fixtures/loopback.mjs) and keel looks "localhost" up as 127.0.0.1 (fixtures/localhost.mjs).
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fixtures } from "./servers.ts";

const require = createRequire(import.meta.url);
const suite = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");

/** `homes`: a file the client fixture appends each KEEL_HOME it used to, for a test to look into. */
export function scenario(name: string, homes?: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const command = `"${process.execPath}" "${join(fixtures, "conformance-client.mjs")}"`;
    const child = spawn(
      process.execPath,
      ["--import", join(fixtures, "loopback.mjs"), suite, "client", "--command", command, "--scenario", name],
      {
        cwd: mkdtempSync(join(tmpdir(), "keel-conformance-run-")),
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...(homes ? { KEEL_CONFORMANCE_HOMES: homes } : {}) },
      },
    );
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}
