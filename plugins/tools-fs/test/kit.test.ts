/**
 * tools-fs loaded by the real host, driven by a scripted model, on the local backend and on the memory one.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { textOf } from "@keel/extensions-api";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";

const text = textOf;

describe("tools-fs through the host", () => {
  it("reads, edits, finds and greps on the local backend in one scripted run", async () => {
    const kit = await createTestKit({
      plugins: [resolve("plugins/ops-local"), resolve("plugins/tools-fs")],
      files: {
        "src/math.js": "export const add = (a, b) => a - b;\n",
        ".gitignore": "dist/\n",
        "dist/math.js": "a - b\n",
      },
      script: [
        {
          toolCalls: [
            { name: "read", arguments: { path: "src/math.js" } },
            { name: "find", arguments: { pattern: "*.js" } },
            { name: "grep", arguments: { pattern: "a - b" } },
          ],
        },
        {
          toolCalls: [
            { name: "edit", arguments: { path: "src/math.js", edits: [{ oldText: "a - b", newText: "a + b" }] } },
          ],
        },
        { text: "fixed" },
      ],
    });
    try {
      const run = await kit.run("fix add");
      expect(run.finalText).toBe("fixed");
      const [read, find, grep, edit] = kit.toolResults();
      expect(text(read!)).toBe("export const add = (a, b) => a - b;");
      expect(text(find!)).toBe("src/math.js");
      expect(text(grep!)).toBe("src/math.js:1: export const add = (a, b) => a - b;");
      expect(grep!.details).toMatchObject({ engine: "ripgrep" });
      expect(text(edit!)).toContain("-export const add = (a, b) => a - b;\n+export const add = (a, b) => a + b;");
      expect(readFileSync(join(kit.cwd, "src/math.js"), "utf8")).toBe("export const add = (a, b) => a + b;\n");
      expect(kit.problems()).toEqual([]);
      // read, find and grep are read-only, so the loop ran them together: all three started before any ended.
      const executions = kit
        .eventNames()
        .filter((name) => name === "tool_execution_start" || name === "tool_execution_end");
      expect(executions.slice(0, 4)).toEqual([
        "tool_execution_start",
        "tool_execution_start",
        "tool_execution_start",
        "tool_execution_end",
      ]);
    } finally {
      await kit.dispose();
    }
  });

  it("walks the files itself when ripgrep is switched off in settings", async () => {
    const kit = await createTestKit({
      plugins: [resolve("plugins/ops-local"), resolve("plugins/tools-fs")],
      settings: { "tools-fs": { ripgrep: false } },
      files: { "a.txt": "needle\n" },
      script: [{ toolCalls: [{ name: "grep", arguments: { pattern: "needle" } }] }, { text: "ok" }],
    });
    try {
      await kit.run("look");
      const [grep] = kit.toolResults();
      expect(text(grep!)).toBe("a.txt:1: needle");
      expect(grep!.details).toMatchObject({ engine: "fallback" });
    } finally {
      await kit.dispose();
    }
  });

  it("works unchanged on the memory backend, touching no disk", async () => {
    const kit = await createTestKit({
      plugins: [resolve("plugins/ops-memory"), resolve("plugins/tools-fs")],
      settings: { ops: "memory", "ops-memory": { files: { "notes/todo.md": "- write tests\n" } } },
      script: [
        {
          toolCalls: [
            { name: "ls", arguments: { path: "notes" } },
            { name: "grep", arguments: { pattern: "tests" } },
          ],
        },
        { toolCalls: [{ name: "write", arguments: { path: "notes/done.md", content: "- nothing yet\n" } }] },
        {
          toolCalls: [
            { name: "read", arguments: { path: "notes/done.md" } },
            { name: "read", arguments: { path: "../escape" } },
          ],
        },
        { text: "ok" },
      ],
    });
    try {
      await kit.run("check notes");
      const [ls, grep, write, read, escape] = kit.toolResults();
      expect(text(ls!)).toBe("todo.md");
      expect(text(grep!)).toBe("notes/todo.md:1: - write tests");
      expect(text(write!)).toBe("Created notes/done.md (14 B).");
      expect(text(read!)).toBe("- nothing yet");
      expect(escape!.isError).toBe(true);
      expect(text(escape!)).toContain('Path refused: "../escape": it lies outside the workspace');
      expect(() => readFileSync(join(kit.cwd, "notes/done.md"))).toThrow();
    } finally {
      await kit.dispose();
    }
  });
});
