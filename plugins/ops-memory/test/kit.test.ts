/**
 * ops-memory loaded by the real host and selected with the `ops` setting, seeded from its settings section,
 * exercised through the backends' probe tools (test/support/ops-probe.ts).
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { probeBackend } from "../../../test/support/ops-probe.ts";

describe("ops-memory through the host", () => {
  it("serves files seeded from settings and refuses to run processes", async () => {
    const { results } = await probeBackend(
      {
        plugins: [resolve("plugins/ops-memory")],
        settings: { ops: "memory", "ops-memory": { files: { "seeded.txt": "from settings\n" } } },
      },
      [
        { name: "cat", arguments: { path: "seeded.txt" } },
        { name: "run", arguments: { command: "ls" } },
      ],
    );
    const [cat, run] = results;
    expect(cat).toEqual({ text: "from settings\n", isError: false, details: { local: false } });
    expect(run!.isError).toBe(true);
    expect(run!.text).toContain('Cannot run "ls": the in-memory operations backend has no processes.');
  });
});
