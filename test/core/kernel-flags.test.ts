/**
 * The kernel's flags are one catalog (core/src/cli/kernel-flags.ts): the boot scan reads the flags it marks
 * `boot` and skips the other flags' values, and the locked-settings check finds the flags that set a setting.
 */
import { expect, it } from "vitest";
import { scanBootArgs } from "../../core/src/cli/boot-args.ts";
import { kernelFlags } from "../../core/src/cli/kernel-flags.ts";
import { lockedFlagProblems } from "../../core/src/settings/locked.ts";

const flags = kernelFlags("keel");

it("scans every boot flag of the catalog, and only those", () => {
  const boot = flags.filter((f) => f.boot).map((f) => f.name);
  expect(boot.sort()).toEqual(["cwd", "mode", "plugin", "print", "safe-mode", "settings", "trust"]);
  const args = scanBootArgs([
    ...["--cwd", "/w", "--plugin", "a", "--plugin=b", "--settings", "{}", "--safe-mode", "--trust"],
    ...["--mode", "json", "--model", "m", "--provider", "p", "--thinking", "low", "run", "-p"],
  ]);
  expect(args).toEqual({
    cwd: "/w",
    plugins: ["a", "b"],
    settings: ["{}"],
    safeMode: true,
    trust: true,
    mode: "json",
    print: true,
    firstWord: "run",
    onlyPrints: false,
  });
});

it("takes a required boot value whatever it looks like, and an optional or other value only when not a flag", () => {
  expect(scanBootArgs(["--cwd", "-odd"]).cwd).toBe("-odd");
  expect(scanBootArgs(["-p", "hello", "world"])).toMatchObject({ print: true, firstWord: "world" });
  expect(scanBootArgs(["-p", "--trust", "word"])).toMatchObject({ print: true, trust: true, firstWord: "word" });
  expect(scanBootArgs(["--model", "--trust", "word"])).toMatchObject({ trust: true, firstWord: "word" });
  expect(scanBootArgs(["--", "--trust"]).trust).toBe(false);
});

it("derives the flags a locked setting refuses from the catalog", () => {
  const given = new Set(["model", "thinking", "cwd"]);
  const problems = lockedFlagProblems(flags, (name) => given.has(name), ["model", "thinking"], "reviewer");
  expect(problems).toEqual([
    '--model sets "model", which the reviewer distribution locks; run without it (the distribution\'s value applies).',
    '--thinking sets "thinking", which the reviewer distribution locks; run without it (the distribution\'s value ' +
      "applies).",
  ]);
});
