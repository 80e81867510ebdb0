import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, SCRIPTED } from "../support/keel-cli.ts";

/** Whether a live process has `marker` in its command line (read from /proc, no pgrep needed). */
function running(marker: string): boolean {
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      if (
        readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(marker) &&
        !readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!.startsWith("Z")
      )
        return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

describe("signals", () => {
  it("SIGTERM aborts the run, ends the session (killing background processes) and exits 143", async () => {
    const marker = `keel-sigterm-${randomBytes(6).toString("hex")}`;
    const env = keelEnv({
      script: [
        { toolCalls: [{ name: "bash", arguments: { command: `sleep 1000 # ${marker}`, background: true } }] },
        { text: "waiting", hang: true },
      ],
    });
    const child = spawn(process.execPath, [KEEL_BIN, "-p", "start a server", "--mode", "json", ...SCRIPTED], {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home },
    });
    let out = "";
    const started = new Promise<void>((resolve) =>
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes('"type":"message_update"') && out.includes('"type":"tool_execution_end"')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await started;
    expect(running(marker)).toBe(true);
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(running(marker)).toBe(false);
  });
});
