/**
 * The file tools on files that are not UTF-8, through the real binary: an edit changes only the bytes it
 * matched, and read says what the model is looking at.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

const LATIN1 = Buffer.from("caf\xe9 au lait\nna\xefve r\xe9sum\xe9\n", "latin1");

describe("files that are not UTF-8, through the keel binary", () => {
  it("edit on a Latin-1 file changes only the matched bytes, and read and edit say the file is not UTF-8", async () => {
    const env = keelEnv({
      script: [
        { toolCalls: [{ name: "read", arguments: { path: "latin1.txt" } }] },
        {
          toolCalls: [
            { name: "edit", arguments: { path: "latin1.txt", edits: [{ oldText: "au lait", newText: "noir" }] } },
          ],
        },
        { text: "Done." },
      ],
    });
    writeFileSync(join(env.cwd, "latin1.txt"), LATIN1);
    const run = await runKeel(["-p", "Make it black coffee", "--mode", "json", ...SCRIPTED], env, {
      timeoutMs: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const results = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === "tool_execution_end")
      .map((event) => ({ isError: event.isError, text: event.result.content[0].text as string }));
    expect(results[0]).toMatchObject({
      isError: false,
      text: expect.stringContaining("latin1.txt is not valid UTF-8"),
    });
    expect(results[1]).toMatchObject({ isError: false, text: expect.stringContaining("edited byte for byte") });
    expect(readFileSync(join(env.cwd, "latin1.txt"))).toEqual(
      Buffer.from("caf\xe9 noir\nna\xefve r\xe9sum\xe9\n", "latin1"),
    );
  });
});
