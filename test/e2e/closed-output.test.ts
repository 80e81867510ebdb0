/**
 * A reader that stops after one line (`keel -p … --mode json | head -1`) through the real binary: keel ends the
 * run and exits by itself, with stderr bounded. Before, each failed write (EPIPE) was reported as a plugin
 * error — in JSON mode written to the same closed output — and keel spun at full CPU, writing gigabytes to
 * stderr and ignoring SIGTERM.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  firstLine: string;
  stderrBytes: number;
}

/** Runs keel with a reader that closes its end of stdout after the first line; a stuck keel is killed at 25 s. */
function readOneLine(args: string[], env: KeelEnv): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KEEL_BIN, ...args], {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let stderrBytes = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) child.stdout.destroy();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderrBytes += chunk.length));
    const killer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, firstLine: out.split("\n")[0]!, stderrBytes });
    });
  });
}

/** Thirty shell calls, each leaving a file, then an answer: far more output than one line. */
const busyScript = [
  ...Array.from({ length: 30 }, (_, i) => ({
    toolCalls: [{ name: "bash", arguments: { command: `touch call-${i}` } }],
  })),
  { text: "all done" },
];

describe("a reader that closes stdout after one line", () => {
  it("ends a --mode json run: keel exits by itself, the rest of the run does not happen", async () => {
    const env = keelEnv({ script: busyScript });
    const run = await readOneLine(["-p", "go", "--mode", "json", "--permission-mode", "full", ...SCRIPTED], env);
    expect(JSON.parse(run.firstLine).type).toBe("session_start");
    expect(run.signal).toBeNull();
    expect(run.code).toBe(141);
    expect(run.stderrBytes).toBeLessThan(2_000);
    // The run stopped once the output was gone, long before its thirtieth call.
    expect(existsSync(join(env.cwd, "call-29"))).toBe(false);
  });

  it("ends a print run whose answer is longer than what was read", async () => {
    const answer = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join("\n");
    const env = keelEnv({ script: [{ text: answer }] });
    const run = await readOneLine(["-p", "go", ...SCRIPTED], env);
    expect(run.firstLine).toBe("line 0");
    expect(run.signal).toBeNull();
    expect(run.code).toBe(141);
    expect(run.stderrBytes).toBeLessThan(2_000);
  });
});
