/**
 * The sandbox shows what ops-local's allowed roots allow, running commands for real in bubblewrap: a
 * `read-write` root outside the workspace is writable, a `read` root under /tmp (which the sandbox replaces
 * by its own) is visible and read-only; and a working folder the sandbox does not show is refused with why,
 * instead of bubblewrap starting the command in the private home.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";
import { createLocalOps } from "../../ops-local/src/local-ops.ts";
import { textOf } from "../../../test/support/processes.ts";
import { batteryWorld, contentOf } from "../../../test/support/sandbox-battery.ts";
import { planLayout } from "../src/layout.ts";
import { SandboxOps } from "../src/sandbox-ops.ts";
import { SandboxSettingsSchema } from "../src/settings.ts";

const plugins = [resolve("plugins/ops-local"), resolve("plugins/sandbox-bwrap"), resolve("plugins/tool-bash")];

/** The folder `pwd` says a command through `ops` ran in (written to a file: output may lag the exit). */
async function whereRuns(ops: SandboxOps, file: string, cwd?: string): Promise<string | undefined> {
  const { code } = await ops.spawn(`pwd > ${file}`, { cwd }).exited;
  return code === 0 ? contentOf(file)?.trim() : `exit ${code}`;
}

describe("sandbox-bwrap and ops-local's allowed roots", () => {
  it("writes a read-write root, reads a read root under /tmp and cannot write it", async () => {
    const world = batteryWorld();
    // batteryWorld lives under /tmp: the sandbox's own /tmp hides it unless it is bound.
    const readable = join(world.root, "docs");
    mkdirSync(readable);
    writeFileSync(join(readable, "guide.txt"), "read me\n");
    const command =
      `echo made > ${world.outside}/made.txt; cat ${readable}/guide.txt; echo x ` +
      `> ${readable}/no.txt || echo refused`;
    const kit = await createTestKit({
      plugins,
      cwd: world.work,
      flags: { sandbox: true },
      settings: {
        "ops-local": {
          allowedRoots: [
            { path: world.outside, access: "read-write" },
            { path: readable, access: "read" },
          ],
        },
      },
      script: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" }],
    });
    try {
      await kit.run("use the roots");
      const out = textOf(kit.toolResults()[0]!);
      expect(contentOf(`${world.outside}/made.txt`)).toBe("made\n");
      expect(out).toContain("read me");
      expect(out).toContain("refused");
      expect(contentOf(`${readable}/no.txt`)).toBeUndefined();
    } finally {
      await kit.dispose();
    }
  });

  it("refuses a working folder the sandbox does not show, and runs in one it shows", async () => {
    const world = batteryWorld();
    const root = join(world.root, "elsewhere");
    mkdirSync(root);
    const local = createLocalOps({ cwd: world.work, allowedRoots: [{ path: root, access: "read-write" }] });
    const settings = SandboxSettingsSchema.parse({});
    // Planned without the root: the local backend accepts the folder, the sandbox would not show it.
    const blind = new SandboxOps({ inner: local, bwrap: "bwrap", layout: planLayout(local.cwd, settings).layout });
    expect(() => blind.spawn("pwd", { cwd: root })).toThrow(
      `cannot run "pwd" in ${root}: that folder is not inside the sandbox`,
    );
    const layout = planLayout(local.cwd, settings, [{ path: root, access: "read-write" }]).layout;
    const sandbox = new SandboxOps({ inner: local, bwrap: "bwrap", layout });
    expect(await whereRuns(sandbox, join(world.work, "a.txt"), root)).toBe(root);
    expect(await whereRuns(sandbox, join(world.work, "b.txt"))).toBe(world.work);
  });
});
