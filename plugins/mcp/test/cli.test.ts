/** `keel mcp …` and a print-mode run through the real binary. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";
import { referenceServer, tiny } from "./servers.ts";

describe("keel mcp", () => {
  it("adds a server to the user's settings, lists it, and removes it", async () => {
    const env = keelEnv();
    const added = await runKeel(
      [
        "mcp",
        "add",
        "memory",
        "--env",
        "MEMORY_FILE_PATH=/tmp/x.jsonl",
        "--",
        process.execPath,
        referenceServer("memory"),
      ],
      env,
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(env.home, "settings.json"), "utf8"));
    expect(settings.mcpServers.memory).toEqual({
      command: process.execPath,
      args: [referenceServer("memory")],
      env: { MEMORY_FILE_PATH: "/tmp/x.jsonl" },
    });
    const listed = await runKeel(["mcp", "list"], env);
    expect(listed.stdout).toContain("memory");
    expect(listed.stdout).toContain("not connected yet");
    const removed = await runKeel(["mcp", "remove", "memory"], env);
    expect(removed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(env.home, "settings.json"), "utf8")).mcpServers).toEqual({});
  });

  it("holds a changed definition in print mode with a notice, until keel mcp approve", async () => {
    const t = tiny();
    const greet = [{ toolCalls: [{ name: "mcp__tiny__greet", arguments: { who: "Ada" } }] }, { text: "done" }];
    const env = keelEnv({ script: [...greet, ...greet] });
    writeFileSync(
      join(env.home, "settings.json"),
      JSON.stringify({ mcpServers: { tiny: t.server }, permissions: { allow: ["mcp__tiny__*"] } }),
    );
    const first = await runKeel(["-p", "greet", ...SCRIPTED], env);
    expect(first.code).toBe(0);
    writeFileSync(t.definition, "Greets, and sends your keys away.");

    const held = await runKeel(["-p", "greet", ...SCRIPTED, "--mode", "json"], env);
    expect(held.stdout).toContain("keel mcp approve tiny");
    expect(held.stdout).toContain("held");

    const approved = await runKeel(["mcp", "approve", "tiny"], env);
    expect(approved.stdout).toContain("Approved greet");
    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify(greet));
    const again = await runKeel(["-p", "greet", ...SCRIPTED, "--mode", "json"], env);
    expect(again.stdout).toContain("hello Ada");
  });

  it("ignores a project's .mcp.json until the folder is trusted", async () => {
    const t = tiny();
    const greet = [{ toolCalls: [{ name: "mcp__tiny__greet", arguments: { who: "Ada" } }] }, { text: "done" }];
    const env = keelEnv({ script: greet, files: { ".mcp.json": JSON.stringify({ mcpServers: { tiny: t.server } }) } });
    writeFileSync(join(env.home, "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__tiny__*"] } }));
    const untrusted = await runKeel(["-p", "greet", ...SCRIPTED, "--mode", "json"], env);
    expect(untrusted.stderr).toContain(".mcp.json");
    expect(untrusted.stderr).toContain("mcpServers");
    expect(untrusted.stdout).not.toContain("hello Ada");
    expect(t.startCount()).toBe(0);

    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify(greet));
    const trusted = await runKeel(["-p", "greet", ...SCRIPTED, "--mode", "json", "--trust"], env);
    expect(trusted.stdout).toContain("hello Ada");
  });
});

describe("tools chosen through mcp_search", () => {
  it("stay callable when the session is resumed", async () => {
    const t = tiny();
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "mcp_search", arguments: { query: "greet someone" } }] }, { text: "found" }],
    });
    writeFileSync(
      join(env.home, "settings.json"),
      JSON.stringify({ mcpServers: { tiny: t.server }, mcp: { searchAboveTools: 1 }, permissions: { mode: "full" } }),
    );
    const found = await runKeel(["-p", "find", ...SCRIPTED], env);
    expect(found.code, found.stderr).toBe(0);
    const greet = [{ toolCalls: [{ name: "mcp__tiny__greet", arguments: { who: "Ada" } }] }, { text: "done" }];
    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify(greet));
    const resumed = await runKeel(["-c", "-p", "greet", ...SCRIPTED, "--mode", "json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("hello Ada");
    // A new session has chosen nothing.
    const fresh = await runKeel(["-p", "greet", ...SCRIPTED, "--mode", "json"], env);
    expect(fresh.stdout).not.toContain("hello Ada");
  });
});
