import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { fixtures, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
  server?.kill();
});

/** server-everything's own Streamable HTTP transport, bound to 127.0.0.1 on a free port. */
function startEverythingHttp(): Promise<string> {
  const child = spawn(
    process.execPath,
    ["--import", join(fixtures, "loopback.mjs"), referenceServer("everything"), "streamableHttp"],
    { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  server = child;
  return new Promise((resolve, reject) => {
    let text = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const port = /listening on (\d+)/.exec(text)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}/mcp`);
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${text}`)));
  });
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
});
