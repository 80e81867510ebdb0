/**
 * `keel dist build` and `keel dist run` through the real binary: the built agent runs under its own name,
 * with its own home, offers only the tools its manifest enables, and keeps its locks against a trusted
 * project that tries to widen them.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";
import { tempDir } from "../support/plugin-fixtures.ts";

const manifests = fileURLToPath(new URL("../../distributions", import.meta.url));
const reviewerManifest = join(manifests, "readonly-reviewer", "distribution.json");
/** A fresh HOME would also mean a cold transform cache; the cache is not what these tests are about. */
const cache = { KEEL_CACHE_DIR: process.env.KEEL_CACHE_DIR ?? join(homedir(), ".cache", "keel") };

function sessionLines(home: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }))
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".jsonl") && files.push(join(dir, e.name));
  };
  walk(home);
  return files.flatMap((f) => readFileSync(f, "utf8").trim().split("\n"));
}

describe("keel dist build readonly-reviewer", () => {
  let out: string;
  let env: KeelEnv;
  let userHome: string;
  beforeAll(async () => {
    out = join(tempDir("keel-dist-"), "reviewer");
    env = keelEnv();
    const built = await runKeel(["dist", "build", reviewerManifest, "--out", out], env, { timeoutMs: 60_000 });
    expect(built.stderr).toBe("");
    expect(built.stdout).toContain(`Built reviewer in ${out}`);
    expect(built.code).toBe(0);
    userHome = tempDir("keel-dist-home-");
  }, 90_000);

  it(
    "runs a scripted task as reviewer, in ~/.reviewer, with no write or bash tool, ignoring a " +
      "trusted project that widens it",
    async () => {
      const work = keelEnv({
        files: {
          "a.js": "export const a = 1;\n",
          ".keel/settings.json": JSON.stringify({
            tools: { enabled: ["read", "write", "bash"] },
            systemPrompt: "You may change anything.",
            permissions: { mode: "full" },
          }),
        },
        script: [
          {
            toolCalls: [
              { name: "write", arguments: { path: "b.js", content: "x" } },
              { name: "bash", arguments: { command: "touch c.js" } },
              { name: "read", arguments: { path: "a.js" } },
            ],
          },
          { text: "a.js exports one constant; nothing to fix." },
        ],
      });
      const run = await runKeel(["-p", "review a.js", "--trust", ...SCRIPTED], work, {
        bin: join(out, "bin", "reviewer.cjs"),
        extraEnv: { HOME: userHome, ...cache },
      });
      expect(run.stdout).toBe("a.js exports one constant; nothing to fix.\n");
      expect(run.code).toBe(0);
      for (const key of ["tools.enabled", "systemPrompt", "permissions.mode"])
        expect(run.stderr).toContain(
          `reviewer: Setting "${key}" is locked by the reviewer distribution; the value ` +
            `in ${join(work.cwd, ".keel", "settings.json")} was ignored.`,
        );
      expect(run.stderr.split("\n").filter((line) => line.startsWith("keel"))).toEqual([]);
      expect(existsSync(join(work.cwd, "b.js")) || existsSync(join(work.cwd, "c.js"))).toBe(false);

      // Its own home: the session is in ~/.reviewer, and keel's home (KEEL_HOME) was not touched.
      const lines = sessionLines(join(userHome, ".reviewer"));
      const results = lines.map((l) => JSON.parse(l)).filter((e) => e.message?.role === "toolResult");
      expect(results.map((e) => [e.message.toolName, e.message.isError])).toEqual([
        ["write", true],
        ["bash", true],
        ["read", false],
      ]);
      expect(JSON.stringify(results[0].message.content)).toContain('Unknown tool \\"write\\"');
      expect(readdirSync(work.home)).toEqual([]);
      expect(existsSync(join(userHome, ".keel"))).toBe(false);
    },
  );

  it("says its own name in --help and --version, and its plugins are the folder's own copies", async () => {
    const bin = join(out, "bin", "reviewer.cjs");
    const help = await runKeel(["--help"], env, { bin, extraEnv: { HOME: userHome, ...cache } });
    expect(help.stdout).toMatch(/^Usage: reviewer \[options\]/);
    expect(help.stdout).toContain("Reviews the code in a workspace without changing it");
    expect(help.stdout).toContain("(see `reviewer models`)");
    expect((await runKeel(["--version"], env, { bin })).stdout).toBe("1.0.0\n");
    const shebang = (file: string) => readFileSync(file, "utf8").split("\n", 1)[0];
    expect(shebang(bin)).toBe(shebang(KEEL_BIN)); // the same Node flags as keel's own command
    const v8Flags = (file: string) => readFileSync(file, "utf8").match(/^ {2}.*setFlagsFromString.*$/gm);
    expect(v8Flags(KEEL_BIN)).toHaveLength(1);
    expect(v8Flags(bin)).toEqual(v8Flags(KEEL_BIN)); // and the same V8 flags, set the same way
    const unknown = await runKeel(["-p", "hi", "--provider", "nope"], env, {
      bin,
      extraEnv: { HOME: userHome, ...cache },
    });
    expect(unknown.stderr).toContain("Run `reviewer models` to see them with their models.");
    const listed = await runKeel(["plugins", "--json"], env, { bin, extraEnv: { HOME: userHome, ...cache } });
    const plugins = JSON.parse(listed.stdout) as { name: string; dir: string; source: string }[];
    expect(plugins.filter((p) => p.source === "distribution").every((p) => p.dir.startsWith(out))).toBe(true);
    expect(plugins.map((p) => p.name)).not.toContain("@keel/plugin-tool-bash");
  });

  it.each([
    ["--permission-mode", "full"],
    ["--yes", undefined],
  ])("refuses %s, which would undo its locked permissions.mode, and runs nothing", async (flag, value) => {
    const work = keelEnv({ script: [{ text: "should not run" }] });
    const run = await runKeel(["-p", "look", flag, ...(value ? [value] : []), ...SCRIPTED], work, {
      bin: join(out, "bin", "reviewer.cjs"),
      extraEnv: { HOME: userHome, ...cache },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `reviewer: ${flag} sets "permissions.mode", which the reviewer distribution locks; run without it`,
    );
    expect(run.stdout).toBe("");
  });

  // Last in this block: it changes the built folder.
  it("locks its own plugins' copies and refuses one whose bytes changed, naming it", async () => {
    const lock = JSON.parse(readFileSync(join(out, "bundled", "keel.lock"), "utf8"));
    expect(lock.plugins["@keel/plugin-tools-fs"]).toMatchObject({
      source: "keel",
      version: "1.0.0",
      tree: expect.stringMatching(/^sha512-/),
    });
    const bin = join(out, "bin", "reviewer.cjs");
    const work = keelEnv({ files: { "a.js": "1\n" }, script: [{ text: "fine" }] });
    const before = await runKeel(["-p", "look", ...SCRIPTED], work, { bin, extraEnv: { HOME: userHome, ...cache } });
    expect(before.stderr).toBe("");
    appendFileSync(join(out, "bundled", "plugins", "@keel", "plugin-tools-fs", "package.json"), " ");
    const after = await runKeel(["-p", "look", ...SCRIPTED], work, { bin, extraEnv: { HOME: userHome, ...cache } });
    expect(after.stderr).toContain(
      "reviewer: plugin @keel/plugin-tools-fs@1.0.0: skipped: its files in " +
        join(out, "bundled", "plugins", "@keel", "plugin-tools-fs") +
        " changed since it was installed",
    );
    expect(after.stderr).toContain("It came with the reviewer distribution: build the distribution again");
  });
});

/** A manifest in a new temp folder. */
function writeManifest(content: unknown): { dir: string; manifest: string } {
  const dir = tempDir("keel-dist-manifest-");
  const manifest = join(dir, "distribution.json");
  writeFileSync(manifest, JSON.stringify(content));
  return { dir, manifest };
}

describe("keel dist", () => {
  it("runs a manifest without building, under its own name and home", async () => {
    const userHome = tempDir("keel-dist-home-");
    const work = keelEnv({ script: [{ text: "reviewed" }] });
    const run = await runKeel(["dist", "run", reviewerManifest, "--", "-p", "look", ...SCRIPTED], work, {
      extraEnv: { HOME: userHome, ...cache },
      timeoutMs: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("reviewed\n");
    expect(run.code).toBe(0);
    expect(existsSync(join(userHome, ".reviewer", "sessions"))).toBe(true);
  });

  it("lists every problem of a manifest and builds nothing", async () => {
    const { dir, manifest } = writeManifest({
      name: "bad",
      command: "Bad Name",
      version: "^1.0.0",
      plugins: [{ name: "@keel/plugin-tools-fs", version: "1.0" }],
    });
    const run = await runKeel(["dist", "build", manifest, "--out", join(dir, "out")], keelEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`dist: the distribution manifest ${manifest} is invalid:`);
    for (const key of ['"command"', '"version"', '"plugins.0.version"']) expect(run.stderr).toContain(key);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("refuses a plugin whose version is not the one installed", async () => {
    const { dir, manifest } = writeManifest({
      name: "old",
      command: "old",
      version: "1.0.0",
      plugins: [{ name: "@keel/plugin-tools-fs", version: "0.9.0" }],
    });
    const run = await runKeel(["dist", "build", manifest, "--out", join(dir, "out")], keelEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/plugin @keel\/plugin-tools-fs@0\.9\.0: .* holds @keel\/plugin-tools-fs@1\.0\.0/);
  });
});
