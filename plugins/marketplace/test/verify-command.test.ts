/**
 * `marketplace.verifyCommand` through the real binary: the operator's check runs on the staged package before
 * it is swapped in, and fails closed — a refusal, a crash and a hang each leave nothing installed (no plugin
 * folder, no lock entry, nothing left in staging); a passing check installs.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { marketEnv, tarball, type MarketEnv } from "./support/market-env.ts";

const SCRIPTS = {
  refuses:
    'console.log("scanning", process.env.KEEL_VERIFY_NAME); console.error("found: credential stealer");' +
    "process.exit(3);",
  crashes: 'process.kill(process.pid, "SIGSEGV");',
  hangs: "setInterval(() => {}, 1000);",
  passes:
    'const fs = require("node:fs"); const dir = process.argv[2];' +
    'process.exit(fs.existsSync(dir + "/package.json") && process.env.KEEL_VERIFY_VERSION === "1.0.0" ? 0 : 1);',
};

function withCheck(env: MarketEnv, script: keyof typeof SCRIPTS): void {
  const file = join(env.fixtures, `${script}.cjs`);
  writeFileSync(file, SCRIPTS[script]);
  const marketplace = { verifyCommand: [process.execPath, file], verifyTimeoutMs: 2000 };
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ marketplace }));
}

function expectNothingInstalled(env: MarketEnv): void {
  expect(existsSync(join(env.home, "plugins", "kp-scanned"))).toBe(false);
  const lock = join(env.home, "keel.lock");
  expect(existsSync(lock) ? readFileSync(lock, "utf8") : "").not.toContain("kp-scanned");
  const staging = join(env.home, ".staging");
  expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
}

describe("marketplace.verifyCommand", () => {
  it.each([
    ["refuses", "it exited with 3:\n  scanning kp-scanned\n  found: credential stealer"],
    ["crashes", "it was killed by SIGSEGV"],
    ["hangs", "it did not finish within 2000 ms"],
  ] as const)("fails closed when the check %s", async (script, why) => {
    const env = marketEnv();
    withCheck(env, script);
    const { path } = await tarball(env, "s.tgz", { name: "kp-scanned" });
    const run = await env.keel(["install", path, "--yes"]);
    expect(run.stderr).toContain(`kp-scanned@1.0.0 was refused by marketplace.verifyCommand (`);
    expect(run.stderr).toContain(`): ${why}`);
    expect(run.stderr).toContain("Nothing was installed.");
    expect(run.code).toBe(1);
    expectNothingInstalled(env);
    expect((await env.keel(["list"])).stdout).toContain("No plugins installed.");
  });

  it("installs when the check passes, with the staged folder and the plugin named", async () => {
    const env = marketEnv();
    withCheck(env, "passes");
    const { path } = await tarball(env, "s.tgz", { name: "kp-scanned" });
    expect((await env.keel(["install", path, "--yes"])).code).toBe(0);
    expect((await env.keel(["kp-scanned-version"])).stdout).toBe("kp-scanned@1.0.0\n");
  });
});
