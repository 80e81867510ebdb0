/**
 * keel on every supported Node line (scripts/node-lines/package.json), started the way users start it: the `keel`
 * that npm links onto the PATH, run through its shebang by whichever `node` comes first on the PATH. A launcher
 * option one line rejects ("node: bad option") stops keel before any of its code runs, so every option of the
 * launcher is also tried alone on each line.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, KEEL_BIN } from "../support/keel-cli.ts";
import { launcherFlags, supportedLines } from "../support/node-lines.ts";

const lines = supportedLines();
const VERSION = JSON.parse(readFileSync(join(KEEL_BIN, "..", "..", "package.json"), "utf8")).version as string;

describe.each(lines)("Node $version", ({ bin, version }) => {
  it("accepts each Node option of keel's launcher", () => {
    for (const flag of launcherFlags()) {
      const run = spawnSync(bin, [flag, "-e", "0"], { encoding: "utf8" });
      expect(run.stderr, `${flag} on Node ${version}`).toBe("");
      expect(run.status, `${flag} on Node ${version}`).toBe(0);
    }
  });

  it("runs the linked `keel` through its shebang: --version, then a scripted one-turn run", () => {
    const env = keelEnv({ script: [{ text: "done on this line" }] });
    const linked = join(env.home, "bin");
    mkdirSync(linked);
    symlinkSync(KEEL_BIN, join(linked, "keel"));
    // Which Node ran it and with which options, written at exit by a preload (NODE_OPTIONS reaches the shebang's node).
    const seen = join(env.home, "seen.json");
    const preload = join(env.home, "seen.cjs");
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(seen)}, ` +
        "JSON.stringify({ version: process.version, execArgv: process.execArgv })));",
    );
    const childEnv = {
      PATH: `${dirname(bin)}:${linked}:/usr/bin:/bin`,
      HOME: env.home,
      KEEL_HOME: env.home,
      NODE_OPTIONS: `--require ${preload}`,
    };
    const keel = (args: string[]) => spawnSync("keel", args, { cwd: env.cwd, env: childEnv, encoding: "utf8" });

    const shown = keel(["--version"]);
    expect(shown.stderr).toBe("");
    expect(shown.stdout).toBe(`${VERSION}\n`);
    expect(JSON.parse(readFileSync(seen, "utf8"))).toEqual({ version: `v${version}`, execArgv: launcherFlags() });

    const settings = '{"provider-scripted":{"script":"turns.json"}}';
    const run = keel(["-p", "go", "--provider", "scripted", "--settings", settings]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("done on this line");
    expect(JSON.parse(readFileSync(seen, "utf8")).version).toBe(`v${version}`);
  });
});

it("refuses a Node line older than the supported ones with a message of its own, not Node's bad option", () => {
  // The newest line, told by a preload that it is Node 20: what an unmaintained Node meets past the shebang, whose
  // options every line (20 too) accepts.
  const { bin } = lines.at(-1)!;
  const env = keelEnv();
  const preload = join(env.home, "old-node.cjs");
  writeFileSync(preload, 'Object.defineProperty(process.versions, "node", { value: "20.20.2" });\n');
  const run = spawnSync(bin, [KEEL_BIN, "-p", "hi"], {
    cwd: env.cwd,
    env: { ...process.env, KEEL_HOME: env.home, NODE_OPTIONS: `--require ${preload}` },
    encoding: "utf8",
  });
  expect(run.stderr).toMatch(/^keel needs Node\.js 22, 24 or 26; this is v[\d.]+, which is not maintained\.\n$/);
  expect(run.status).toBe(1);
});
