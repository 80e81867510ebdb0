/**
 * Workspace confinement under a race, through the real binary: while another process swaps a workspace folder
 * for a symlink to a folder outside and back, a scripted model calls write, read, ls, find and grep on it
 * a hundred times each. No result may show outside content, nothing may be written outside, and every file
 * the model is told was created is inside.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFolderSwapper } from "@keel/testing/ops-conformance";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { tempDir } from "../support/plugin-fixtures.ts";

const TRIES = 100;
const LEAK = /classified|leaked/;

describe("workspace confinement under a race, through the keel binary", () => {
  it("a folder flipping to a symlink to outside never lets write, read, ls, find or grep reach outside", async () => {
    const calls = Array.from({ length: TRIES }, (_, i) => [
      { name: "write", arguments: { path: `swapdir/w${i}.txt`, content: `written ${i}\n` } },
      { name: "read", arguments: { path: "swapdir/same.txt" } },
      { name: "ls", arguments: { path: "swapdir" } },
      { name: "find", arguments: { pattern: "*", path: "swapdir" } },
      { name: "grep", arguments: { pattern: "w.rds|cl.ssified", path: "swapdir" } },
    ]).flat();
    const env = keelEnv({ script: [{ toolCalls: calls }, { text: "Done." }] });
    const outside = join(tempDir("keel-race-outside-"), "outside");
    mkdirSync(join(env.cwd, "swapdir"));
    mkdirSync(outside);
    writeFileSync(join(env.cwd, "swapdir/same.txt"), "inside words\n");
    writeFileSync(join(outside, "same.txt"), "outside classified\n");
    writeFileSync(join(outside, "leaked-only.txt"), "outside classified\n");

    const swapper = await startFolderSwapper(join(env.cwd, "swapdir"), outside);
    let run: Awaited<ReturnType<typeof runKeel>>;
    try {
      run = await runKeel(["-p", "Race the folder", "--mode", "json", ...SCRIPTED], env, { timeoutMs: 120_000 });
    } finally {
      await swapper.stop();
    }
    expect(run.code).toBe(0);
    const results = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === "tool_execution_end")
      .map((event) => ({
        tool: event.toolName as string,
        isError: event.isError as boolean,
        text: event.result.content[0].text as string,
      }));
    expect(results).toHaveLength(calls.length);
    expect(results.filter((r) => LEAK.test(r.text)).slice(0, 3)).toEqual([]);

    expect(readdirSync(outside).sort()).toEqual(["leaked-only.txt", "same.txt"]);
    expect(readFileSync(join(outside, "same.txt"), "utf8")).toBe("outside classified\n");
    const created = results
      .filter((r) => r.tool === "write" && !r.isError)
      .map((r) => /^Created swapdir\/(w\d+\.txt)/.exec(r.text)?.[1]);
    const inside = [join(env.cwd, "swapdir"), ...swapper.madeFolders()].flatMap((folder) => readdirSync(folder));
    expect(inside.sort()).toEqual(["same.txt", ...created.map((name) => name!)].sort());
    // The race was real: some calls were refused or found the folder missing, others worked.
    expect(results.some((r) => r.isError)).toBe(true);
    expect(results.some((r) => !r.isError)).toBe(true);
  }, 180_000);
});
