/**
 * large-results loaded by the real host: a scripted model calls a tool whose result is too large, gets the
 * preview, and reads part of it back with read_result by the handle the preview named.
 */
import { resolve } from "node:path";
import { definePlugin, defineTool, z } from "@keel/extensions-api";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";
import { handleFor } from "../src/store.ts";

const big = Array.from({ length: 3000 }, (_, i) => `row ${i + 1}`).join("\n");

const dumpPlugin = definePlugin({
  activate(api) {
    api.registerTool(
      defineTool({
        name: "dump",
        description: "Prints 3000 rows.",
        parameters: z.object({}),
        readOnly: true,
        execute: async () => ({ content: big }),
      }),
    );
  },
});

describe("large-results through the host", () => {
  it("replaces a large result with a preview and reads it back by handle", async () => {
    const handle = handleFor(big);
    const kit = await createTestKit({
      plugins: [resolve("plugins/large-results")],
      inline: [{ name: "dump-fixture", plugin: dumpPlugin }],
      script: [
        { toolCalls: [{ name: "dump" }] },
        {
          toolCalls: [
            { name: "read_result", arguments: { handle, offset: 1500, limit: 2 } },
            { name: "read_result", arguments: { handle, grep: "^row 299[89]$" } },
          ],
        },
        { text: "read it" },
      ],
    });
    try {
      await kit.run("dump and read");
      const [dump, range, grep] = kit
        .toolResults()
        .map((m) => m.content.map((b) => (b.type === "text" ? b.text : "")).join(""));
      expect(dump).toMatch(
        new RegExp(
          `^\\[This result is 25\\.3 KB \\(3000 lines\\), too large to show whole\\. It is stored as "${handle}"`,
        ),
      );
      expect(dump).toContain("--- lines 1-40 ---\nrow 1\n");
      expect(range).toBe(
        `row 1500\nrow 1501\n\n[Lines 1500-1501 of 3000. Next: read_result({ "handle": "${handle}", ` +
          `"offset": 1502 }).]`,
      );
      expect(grep).toBe("2998: row 2998\n2999: row 2999\n\n[2 matching lines shown, searched from line 1 of 3000.]");
      expect(kit.problems()).toEqual([]);
    } finally {
      await kit.dispose();
    }
  });
});
