/**
 * `runtime.useOps`: a mode chooses the session's backend over the `ops` setting, and the chosen backend is
 * told which one it replaces (so it can wrap it); once the backend has started, the choice is refused.
 */
import { resolve } from "node:path";
import { definePlugin } from "@keel/extensions-api";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";

const memory = resolve("plugins/ops-memory");
const tools = resolve("plugins/tools-fs");

/** A backend that notes what it replaces and wraps it. */
function wrapper(seen: { replaces?: string }) {
  return definePlugin({
    activate(api) {
      api.registerOps({
        name: "wrapper",
        async create(options) {
          seen.replaces = options.replaces;
          const inner = await (await api.opsBackend(options.replaces!))!.create({ cwd: options.cwd });
          return { ...inner, cwd: inner.cwd, readFile: async () => new TextEncoder().encode("from the wrapper") };
        },
      });
    },
  });
}

describe("runtime.useOps", () => {
  it("uses the chosen backend, which wraps the one the setting names", async () => {
    const seen: { replaces?: string } = {};
    const kit = await createTestKit({
      plugins: [memory, tools],
      inline: [{ name: "wrapper", plugin: wrapper(seen) }],
      settings: { ops: "memory", "ops-memory": { files: { "a.txt": "from memory" } } },
      script: [{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] }, { text: "done" }],
    });
    try {
      kit.runtime.useOps("wrapper");
      await kit.run("read it");
      expect(seen.replaces).toBe("memory");
      expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("from the wrapper");
      expect(() => kit.runtime.useOps("memory")).toThrow(/has started already/);
    } finally {
      await kit.dispose();
    }
  });
});
