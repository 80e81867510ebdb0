/**
 * tool-bash loaded by the real host next to the real ops-local backend, driven by a scripted model.
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";
import { processesWithEnv, textOf } from "../../../test/support/processes.ts";

const plugins = [resolve("plugins/ops-local"), resolve("plugins/tool-bash")];

describe("tool-bash through the host", () => {
  it("runs a scripted bash call on the local backend and returns its output and exit code", async () => {
    const kit = await createTestKit({
      plugins,
      files: { "hello.txt": "hi from the workspace\n" },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "cat hello.txt; exit 4" } }] }, { text: "done" }],
    });
    try {
      const run = await kit.run("show me hello.txt");
      expect(run.finalText).toBe("done");
      const [result] = kit.toolResults();
      expect(result!.isError).toBe(false);
      expect(textOf(result!)).toBe("hi from the workspace\n\n[Exit code: 4]");
      expect(kit.problems()).toEqual([]);
    } finally {
      await kit.dispose();
    }
  });

  it("stops a running command, and everything it started, when the run is aborted", async () => {
    const marker = randomBytes(6).toString("hex");
    const kit = await createTestKit({
      plugins,
      script: [
        {
          toolCalls: [
            {
              name: "bash",
              arguments: { command: `export KEEL_TEST_MARKER=${marker}; sleep 1000 & echo ready; wait` },
            },
          ],
        },
        { text: "unused" },
      ],
    });
    try {
      kit.runtime.events.on("tool_execution_update", (update) => {
        if (textOf(update.partial).includes("ready")) kit.runtime.abort();
      });
      const run = await kit.run("start and abort");
      expect(run.reason).toBe("aborted");
      const [result] = kit.toolResults();
      expect(result!.isError).toBe(true);
      expect(textOf(result!)).toContain("ready");
      expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
    } finally {
      await kit.dispose();
    }
  });

  it("kills the session's background processes when the session ends", async () => {
    const marker = randomBytes(6).toString("hex");
    const kit = await createTestKit({
      plugins,
      script: [
        {
          toolCalls: [
            {
              name: "bash",
              arguments: {
                command: `export KEEL_TEST_MARKER=${marker}; sleep 1000 & setsid sleep 1000 & wait`,
                background: true,
              },
            },
          ],
        },
        { toolCalls: [{ name: "process", arguments: { action: "list" } }] },
        { text: "started" },
      ],
    });
    try {
      await kit.run("start a server");
      const [started, listed] = kit.toolResults();
      expect(textOf(started!)).toMatch(/^Started background process 1 \(pid \d+\)/);
      expect(textOf(listed!)).toMatch(/^1\tpid \d+\trunning\t/);
    } finally {
      await kit.dispose();
    }
    expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
  });
});
