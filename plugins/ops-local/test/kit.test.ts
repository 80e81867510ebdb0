/**
 * ops-local loaded by the real host as the active backend, with allowed roots from settings, exercised by a
 * scripted model through the backends' probe tools (test/support/ops-probe.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeBackend } from "../../../test/support/ops-probe.ts";
import { tempFolder } from "../../../test/support/workspace.ts";

const plugins = [resolve("plugins/ops-local")];

describe("ops-local through the host", () => {
  let outer: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    outer = tempFolder("keel-ops-local-kit-");
    mkdirSync(join(outer.path, "ref"));
    writeFileSync(join(outer.path, "ref/doc.md"), "shared docs\n");
  });
  afterEach(() => outer.remove());

  it("serves reads in the workspace and in an allowed root, and refuses paths outside both", async () => {
    const { results } = await probeBackend(
      {
        plugins,
        files: { "here.txt": "in the workspace\n" },
        settings: { "ops-local": { allowedRoots: [{ path: join(outer.path, "ref"), access: "read" }] } },
      },
      [
        { name: "cat", arguments: { path: "here.txt" } },
        { name: "cat", arguments: { path: join(outer.path, "ref/doc.md") } },
        { name: "cat", arguments: { path: "/etc/hostname" } },
        { name: "run", arguments: { command: "true" } },
      ],
    );
    const [here, shared, refused, ran] = results;
    expect(here).toEqual({ text: "in the workspace\n", isError: false, details: { local: true } });
    expect(shared!.text).toBe("shared docs\n");
    expect(refused!.isError).toBe(true);
    expect(refused!.text).toContain('Path refused: "/etc/hostname": it lies outside the workspace');
    expect(ran!.text).toBe("exit 0");
  });

  it("warns about an allowed root that does not exist", async () => {
    const missing = join(outer.path, "nope");
    const { problems } = await probeBackend(
      { plugins, settings: { "ops-local": { allowedRoots: [{ path: missing }] } } },
      [{ name: "cat", arguments: { path: "x" } }],
    );
    expect(problems).toContain(`The allowed root ${missing} does not exist, so it was left out`);
  });
});
