import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { fixtures, pluginDir, referenceServer, startHttpServer } from "./servers.ts";

let kit: TestKit | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
  server?.kill();
});

/** server-everything's own Streamable HTTP transport, bound to 127.0.0.1 on a free port. */
async function startEverythingHttp(): Promise<string> {
  const started = await startHttpServer([
    "--import",
    join(fixtures, "loopback.mjs"),
    referenceServer("everything"),
    "streamableHttp",
  ]);
  server = started.child;
  return started.url;
}

describe("mcp over Streamable HTTP", () => {
  it("lists and calls server-everything's tools at a URL", async () => {
    const url = await startEverythingHttp();
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: { everything: { url } } },
      script: [
        { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "over http" } }] },
        { toolCalls: [{ name: "mcp__everything__get-tiny-image", arguments: {} }] },
        { text: "ok" },
      ],
    });
    expect(kit.runtime.listTools().map((t) => t.name)).toContain("mcp__everything__echo");
    await kit.run("echo");
    const [echo, image] = kit.toolResults();
    expect(JSON.stringify(echo!.content)).toContain("over http");
    expect(image!.content.some((b) => b.type === "image")).toBe(true);
  });

  for (const protocol of ["2026-07-28", "auto"] as const) {
    it(`negotiates 2026-07-28 with protocol ${protocol} against a server that offers it, and calls work`, async () => {
      const started = await startHttpServer([join(fixtures, "modern-server.mjs")]);
      server = started.child;
      kit = await createTestKit({
        plugins: [pluginDir],
        settings: { mcpServers: { modern: { url: started.url } }, mcp: { protocol } },
        script: [{ toolCalls: [{ name: "mcp__modern__shout", arguments: { text: "hi" } }] }, { text: "ok" }],
      });
      await kit.runtime.runCommand("/mcp");
      expect(
        kit
          .eventsOf("notice")
          .map((n) => n.message)
          .join("\n"),
      ).toMatch(/modern \(.*\): ready, protocol 2026-07-28/);
      await kit.run("shout");
      expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("HI");
    });
  }
});
