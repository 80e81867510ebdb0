/**
 * The sandbox backend through the real host, picked by its flag: commands run inside bubblewrap, and the local
 * spawn's process-tree guarantees still hold through it (an abort and the session's end leave nothing behind,
 * including processes that started a new session inside the sandbox).
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";
import { processesWithEnv, textOf } from "../../../test/support/processes.ts";
import { batteryWorld, contentOf, Listeners } from "../../../test/support/sandbox-battery.ts";

const plugins = [resolve("plugins/ops-local"), resolve("plugins/sandbox-bwrap"), resolve("plugins/tool-bash")];

describe("sandbox-bwrap through the host", () => {
  it(
    'runs commands in the sandbox when --sandbox is given (over "ops": "local"), and on the local ' +
      "backend without it",
    async () => {
      const seen: string[] = [];
      for (const flags of [{ sandbox: true }, {}]) {
        const script = [
          { toolCalls: [{ name: "bash", arguments: { command: "cat /proc/1/comm" } }] },
          { text: "done" },
        ];
        const kit = await createTestKit({ plugins, flags, settings: { ops: "local" }, script });
        try {
          await kit.run("probe");
          seen.push(textOf(kit.toolResults()[0]!).split("\n")[0]!);
          expect(kit.problems()).toEqual([]);
        } finally {
          await kit.dispose();
        }
      }
      // In the sandbox's own pid namespace the first process is bwrap; on the host it is the host's init.
      expect(seen[0]).toBe("bwrap");
      expect(seen[1]).not.toBe("bwrap");
    },
  );

  it("opens what its settings say: the network, and more writable folders", async () => {
    const net = await Listeners.start();
    const world = batteryWorld();
    const command =
      `echo allowed > ${world.outside}/extra.txt; ` + `exec 3<>/dev/tcp/127.0.0.1/${net.tcpPort} && echo connected`;
    const kit = await createTestKit({
      plugins,
      flags: { sandbox: true },
      settings: { "sandbox-bwrap": { network: true, writable: [world.outside] } },
      script: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" }],
    });
    try {
      await kit.run("use the network");
      expect(textOf(kit.toolResults()[0]!)).toContain("connected");
      expect(contentOf(`${world.outside}/extra.txt`)).toBe("allowed\n");
      await net.settle();
      expect(net.tcpConnections).toBe(1);
    } finally {
      await kit.dispose();
      net.close();
    }
  });

  it("kills a sandboxed command and everything it started, when the run is aborted", async () => {
    const marker = randomBytes(6).toString("hex");
    const kit = await createTestKit({
      plugins,
      flags: { sandbox: true },
      script: [
        {
          toolCalls: [
            {
              name: "bash",
              arguments: {
                command: `export KEEL_TEST_MARKER=${marker}; sleep 1000 & setsid sleep 1000 & echo ready; wait`,
              },
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
      expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
    } finally {
      await kit.dispose();
    }
  });

  it("kills the session's sandboxed background processes when the session ends", async () => {
    const marker = randomBytes(6).toString("hex");
    const kit = await createTestKit({
      plugins,
      flags: { sandbox: true },
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
        { text: "started" },
      ],
    });
    try {
      await kit.run("start a server");
      expect(textOf(kit.toolResults()[0]!)).toMatch(/^Started background process 1/);
    } finally {
      await kit.dispose();
    }
    expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
  });
});
