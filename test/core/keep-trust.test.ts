/**
 * keel's own write to a trusted project's configuration keeps the folder trusted (`keepingTrust`), but only
 * when the user's remembered decision trusted it exactly as it was: not when someone changed it since the
 * decision was read, and not when it was trusted for one run only (`--trust`).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookBus } from "@keel/kernel";
import { decideProjectTrust, type TrustOptions } from "../../core/src/trust/decide.ts";
import { keepingTrust } from "../../core/src/trust/keep-trust.ts";
import { readProjectConfig } from "../../core/src/trust/project-config.ts";
import { TrustStore } from "../../core/src/trust/trust-store.ts";

const SETTINGS = ".keel/settings.json";

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), "keel-keep-trust-"));
  const home = mkdtempSync(join(tmpdir(), "keel-keep-trust-home-"));
  mkdirSync(join(cwd, ".keel"));
  writeFileSync(join(cwd, SETTINGS), JSON.stringify({ plugins: { disabled: ["a"] } }));
  const store = new TrustStore(home);
  const decide = (options: TrustOptions = {}) =>
    decideProjectTrust({
      cwd,
      project: { plugins: { disabled: ["a"] } },
      store,
      hooks: new HookBus(() => undefined),
      options,
      isCliCommand: () => false,
      command: "keel",
      activateDeciders: async () => undefined,
      warnings: [],
    });
  /** What a `keel disable b --project` writes. */
  const keelWrite = () => writeFileSync(join(cwd, SETTINGS), JSON.stringify({ plugins: { disabled: ["a", "b"] } }));
  const trustedNow = () => store.remembered(readProjectConfig(cwd), []);
  return { cwd, store, decide, keelWrite, trustedNow };
}

describe("keepingTrust", () => {
  it("remembers keel's own change to a folder the user trusted as it was", async () => {
    const { cwd, store, decide, keelWrite, trustedNow } = setup();
    await store.remember(readProjectConfig(cwd), true, []);
    const trust = await decide();
    expect(trust).toMatchObject({ trusted: true, decidedBy: "remembered" });
    await keepingTrust(trust, store, [], keelWrite);
    expect(trustedNow()).toBe(true);
  });

  it("does not when someone changed the folder after trust was decided", async () => {
    const { cwd, store, decide, keelWrite, trustedNow } = setup();
    await store.remember(readProjectConfig(cwd), true, []);
    const trust = await decide();
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { x: { command: "evil" } } }));
    await keepingTrust(trust, store, [], keelWrite);
    expect(trustedNow()).toBeUndefined();
  });

  it("does not when the folder was trusted for this run only", async () => {
    const { store, decide, keelWrite, trustedNow } = setup();
    const trust = await decide({ granted: true });
    expect(trust).toMatchObject({ trusted: true, decidedBy: "--trust" });
    await keepingTrust(trust, store, [], keelWrite);
    expect(trustedNow()).toBeUndefined();
  });
});
