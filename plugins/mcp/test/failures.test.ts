import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { nodeServer, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** The pids of processes whose environment holds `tag`. */
function pidsTagged(tag: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "latin1").includes(tag);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const echo = (message: string) => ({ toolCalls: [{ name: "mcp__everything__echo", arguments: { message } }] });
const notices = (k: TestKit) =>
  k
    .eventsOf("notice")
    .map((n) => n.message)
    .join("\n");

describe("mcp server failures", () => {
  it("restarts server-everything after it crashes, and the next call reaches the new process", async () => {
    const tag = `KEEL_MCP_TEST_TAG=${randomUUID()}`;
    const [key, value] = tag.split("=") as [string, string];
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: { everything: nodeServer(referenceServer("everything"), ["stdio"], { [key]: value }) } },
      script: [echo("one"), { text: "ok" }, echo("two"), { text: "ok" }],
    });
    await kit.run("first");
    const [before] = pidsTagged(tag);
    expect(before).toBeDefined();
    process.kill(before!, "SIGKILL");
    await vi.waitFor(() => expect(notices(kit!)).toContain('MCP server "everything" stopped unexpectedly'));
    await kit.run("second");
    const [, second] = kit.toolResults();
    expect(second!.isError).toBeFalsy();
    expect(JSON.stringify(second!.content)).toContain("two");
    expect(pidsTagged(tag)).not.toContain(before);
  });

  it("stops the server's whole process group with the session", async () => {
    const tag = `KEEL_MCP_TEST_TAG=${randomUUID()}`;
    const [key, value] = tag.split("=") as [string, string];
    // The server leaves a process behind that ignores the closed stdin: only a signal to the group ends it.
    const script = `sleep 1000 & exec "${process.execPath}" "${referenceServer("everything")}" stdio`;
    const server = { command: "sh", args: ["-c", script], env: { [key]: value } };
    kit = await createTestKit({ plugins: [pluginDir], settings: { mcpServers: { everything: server } } });
    expect(pidsTagged(tag).length).toBe(2);
    await kit.dispose();
    kit = undefined;
    await vi.waitFor(() => expect(pidsTagged(tag)).toEqual([]));
  });

  it("reports a server that cannot start by name and runs without it", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: {
        mcpServers: {
          missing: { command: "/nonexistent/mcp-server" },
          everything: nodeServer(referenceServer("everything"), ["stdio"]),
        },
      },
      script: [echo("still here"), { text: "ok" }],
    });
    expect(kit.problems().join("\n") + notices(kit)).toMatch(/MCP server "missing" did not start/);
    await kit.run("echo");
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("still here");
  });

  it("gives up on a server that never answers initialize, after mcp.startTimeoutMs", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: {
        mcp: { startTimeoutMs: 300 },
        mcpServers: { silent: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] } },
      },
    });
    expect(kit.problems().join("\n") + notices(kit)).toMatch(/MCP server "silent" did not start/);
  });
});
