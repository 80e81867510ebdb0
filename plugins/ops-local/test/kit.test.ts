/**
 * ops-local loaded by the real host as the active backend, with allowed roots from settings, exercised by a
 * scripted model through a small inline tool that reports what `ctx.ops` did.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineTool, definePlugin, z, textOf } from "@keel/extensions-api";
import { createTestKit } from "@keel/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempFolder } from "../../../test/support/workspace.ts";

const text = textOf;

/** A tool that reads a path through whatever backend is active. */
const probe = {
  name: "probe",
  plugin: definePlugin({
    activate(api) {
      api.registerTool(
        defineTool({
          name: "cat",
          description: "reads a file through ctx.ops",
          parameters: z.object({ path: z.string() }),
          readOnly: true,
          async execute(input, ctx) {
            return {
              content: new TextDecoder().decode(await ctx.ops.readFile(input.path)),
              details: { local: ctx.ops.local },
            };
          },
        }),
      );
    },
  }),
};

describe("ops-local through the host", () => {
  let outer: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    outer = tempFolder("keel-ops-local-kit-");
    mkdirSync(join(outer.path, "ref"));
    writeFileSync(join(outer.path, "ref/doc.md"), "shared docs\n");
  });
  afterEach(() => outer.remove());

  it("serves reads in the workspace and in an allowed root, and refuses paths outside both", async () => {
    const kit = await createTestKit({
      plugins: [resolve("plugins/ops-local")],
      inline: [probe],
      files: { "here.txt": "in the workspace\n" },
      settings: { "ops-local": { allowedRoots: [{ path: join(outer.path, "ref"), access: "read" }] } },
      script: [
        {
          toolCalls: [
            { name: "cat", arguments: { path: "here.txt" } },
            { name: "cat", arguments: { path: join(outer.path, "ref/doc.md") } },
            { name: "cat", arguments: { path: "/etc/hostname" } },
          ],
        },
        { text: "done" },
      ],
    });
    try {
      await kit.run("read them");
      const [here, shared, refused] = kit.toolResults();
      expect(text(here!)).toBe("in the workspace\n");
      expect(here!.details).toEqual({ local: true });
      expect(text(shared!)).toBe("shared docs\n");
      expect(refused!.isError).toBe(true);
      expect(text(refused!)).toContain('Path refused: "/etc/hostname": it lies outside the workspace');
    } finally {
      await kit.dispose();
    }
  });

  it("warns about an allowed root that does not exist", async () => {
    const missing = join(outer.path, "nope");
    const kit = await createTestKit({
      plugins: [resolve("plugins/ops-local")],
      inline: [probe],
      settings: { "ops-local": { allowedRoots: [{ path: missing }] } },
      script: [{ toolCalls: [{ name: "cat", arguments: { path: "x" } }] }, { text: "done" }],
    });
    try {
      await kit.run("go");
      expect(kit.problems().join("\n")).toContain(`The allowed root ${missing} does not exist, so it was left out`);
    } finally {
      await kit.dispose();
    }
  });
});
