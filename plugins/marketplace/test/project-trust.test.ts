/**
 * A change keel itself makes to a trusted project's configuration, at the user's word (`install`, `disable`,
 * `enable`, `remove` with `--project`), keeps the folder trusted; a change made any other way needs trust again.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { marketEnv, tarball } from "./support/market-env.ts";

const NOT_TRUSTED = "is not trusted, so its plugins cannot be changed";

describe("keel's own changes to a trusted project", () => {
  it("keep it trusted; an edit made outside keel asks for trust again", async () => {
    const env = marketEnv();
    const { path } = await tarball(env, "kp.tgz", { name: "kp-local" });
    // Nothing in the folder needs trust yet: the user's install there is the first configuration it has.
    expect((await env.keel(["install", path, "--project", "--yes"])).code).toBe(0);
    for (const args of [
      ["disable", "kp-local"],
      ["enable", "kp-local"],
    ]) {
      const run = await env.keel([...args, "--project"]);
      expect(run.stderr).not.toContain(NOT_TRUSTED);
      expect(run.code).toBe(0);
    }
    const trust = JSON.parse(readFileSync(join(env.home, "trust.json"), "utf8"));
    expect(Object.values(trust.folders)).toEqual([expect.objectContaining({ trusted: true })]);

    // Someone else edits the project's settings (an editor, a git pull): keel asks for trust again.
    const settings = join(env.cwd, ".keel", "settings.json");
    writeFileSync(settings, JSON.stringify({ ...JSON.parse(readFileSync(settings, "utf8")), model: "other" }));
    const refused = await env.keel(["remove", "kp-local", "--project"]);
    expect(refused.stderr).toContain(NOT_TRUSTED);
    expect(refused.code).toBe(1);
    expect((await env.keel(["trust"])).code).toBe(0);
    const removed = await env.keel(["remove", "kp-local", "--project"]);
    expect(removed.stdout).toMatch(/^removed kp-local:\n/);
    // The removal was keel's too: the folder is still trusted for the next change.
    expect((await env.keel(["install", path, "--project", "--yes"])).code).toBe(0);
  }, 120_000);
});
