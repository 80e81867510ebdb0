/**
 * The shell sandbox through the real binary, as root and as an unprivileged user: every attack of the battery
 * gets through on the unsandboxed `local` backend (so each check can fail) and is refused under `--sandbox`;
 * work inside the workspace still succeeds through the real tools; a bwrap that cannot start refuses commands
 * and says why, while the file tools keep working.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKeel } from "../support/keel-cli.ts";
import {
  asUser,
  attacks,
  batteryWorld,
  contentOf,
  ensureTestUser,
  Listeners,
  secretHolder,
  type BatteryWorld,
} from "../support/sandbox-battery.ts";
import { SHELL_PATHS } from "../support/shell-paths.ts";

interface ToolEnd {
  toolName: string;
  isError: boolean;
  text: string;
}

let net: Listeners;
beforeAll(async () => (net = await Listeners.start()));
afterAll(() => net.close());

/** Runs keel in `world` playing one tool call per turn; resolves to each call's result. */
async function playCalls(
  world: BatteryWorld,
  calls: { name: string; arguments: Record<string, unknown> }[],
  flags: string[],
  prefix: string[],
  env: Record<string, string> = {},
  longLivedShell = true,
) {
  writeFileSync(
    join(world.work, "turns.json"),
    JSON.stringify([...calls.map((call) => ({ toolCalls: [call] })), { text: "done" }]),
  );
  const settings = JSON.stringify({
    "provider-scripted": { script: "turns.json" },
    "sandbox-bwrap": { dotfiles: [".gitconfig"] },
    "ops-local": { longLivedShell },
  });
  const run = await runKeel(
    [
      "-p",
      "go",
      "--mode",
      "json",
      "--provider",
      "scripted",
      "--permission-mode",
      "full",
      "--settings",
      settings,
      ...flags,
    ],
    { cwd: world.work, home: world.keelHome },
    { prefix, extraEnv: { HOME: world.home, ...env }, timeoutMs: 60_000 },
  );
  const events = run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const results: ToolEnd[] = events
    .filter((e) => e.type === "tool_execution_end")
    .map((e) => ({ toolName: e.toolName, isError: e.isError, text: String(e.result.content[0]?.text ?? "") }));
  return { run, results };
}

async function battery(
  sandboxed: boolean,
  prefix: string[],
  owner: { uid: number; gid: number } | undefined,
  longLivedShell: boolean,
) {
  const world = batteryWorld(owner);
  const holder = secretHolder(world.secret, prefix);
  try {
    const list = attacks(world, net, holder.pid!, { remount: sandboxed });
    const { run, results } = await playCalls(
      world,
      list.map((a) => ({ name: "bash", arguments: { command: a.command } })),
      sandboxed ? ["--sandbox"] : [],
      prefix,
      {},
      longLivedShell,
    );
    expect(run.stderr).toBe("");
    expect(results).toHaveLength(list.length);
    await net.settle();
    return Object.fromEntries(list.map((attack, i) => [attack.name, attack.succeeded(results[i]!.text)]));
  } finally {
    holder.kill("SIGKILL");
    net.tcpConnections = 0;
    net.datagrams.length = 0;
  }
}

const user = ensureTestUser();
const runners: [string, string[], { uid: number; gid: number } | undefined][] = [
  [process.getuid?.() === 0 ? "root" : "the current user", [], undefined],
  ...(user ? [["an unprivileged user", asUser(user), user] as [string, string[], { uid: number; gid: number }]] : []),
];

// Both ways the local backend starts commands (ops-local.longLivedShell), since the sandbox wraps either.
const cases = runners.flatMap(([who, prefix, owner]) =>
  SHELL_PATHS.map(([path, longLivedShell]) => [`${who}, ${path}`, prefix, owner, longLivedShell] as const),
);

describe.each(cases)("the shell sandbox, as %s", (_who, prefix, owner, longLivedShell) => {
  it("lets every attack through on the unsandboxed local backend (the checks can fail)", async () => {
    const outcome = await battery(false, prefix, owner, longLivedShell);
    expect(Object.values(outcome).every(Boolean), JSON.stringify(outcome)).toBe(true);
  }, 90_000);

  it("refuses every attack under --sandbox", async () => {
    const outcome = await battery(true, prefix, owner, longLivedShell);
    expect(outcome).toEqual(Object.fromEntries(Object.keys(outcome).map((name) => [name, false])));
    expect(Object.keys(outcome)).toContain("remount / read-write");
  }, 90_000);

  it("does work inside the workspace: bash writes a file, read reads it; chosen dotfiles are read-only", async () => {
    const world = batteryWorld(owner);
    const { run, results } = await playCalls(
      world,
      [
        { name: "bash", arguments: { command: "echo made inside > made.txt && cat ~/.gitconfig && ls -A ~" } },
        { name: "read", arguments: { path: "made.txt" } },
        { name: "bash", arguments: { command: "echo more >> ~/.gitconfig" } },
      ],
      ["--sandbox"],
      prefix,
      {},
      longLivedShell,
    );
    expect(run.stderr).toBe("");
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["bash", false],
      ["read", false],
      ["bash", false],
    ]);
    expect(results[0]!.text).toContain("name = Sandbox Test");
    expect(results[2]!.text).toMatch(/Read-only file system[\s\S]*\[Exit code: 1\]/);
    expect(results[0]!.text).not.toContain(".secret-rc");
    expect(results[1]!.text).toContain("made inside");
    expect(contentOf(join(world.work, "made.txt"))).toBe("made inside\n");
    expect(contentOf(join(world.home, ".gitconfig"))).toBe("[user]\n\tname = Sandbox Test\n");
  }, 60_000);
});

describe("choosing the sandbox", () => {
  it("is what --sandbox picks, unless the managed layer names the backend (nothing below undoes it)", async () => {
    const world = batteryWorld();
    const managed = join(world.root, "managed-settings.json");
    const probe = [{ name: "bash", arguments: { command: "cat /proc/1/comm" } }];
    const picked = await playCalls(world, probe, ["--sandbox"], []);
    writeFileSync(managed, JSON.stringify({ ops: "local" }));
    const pinned = await playCalls(world, probe, ["--sandbox"], [], { KEEL_MANAGED_SETTINGS: managed });
    expect(picked.results[0]!.text.split("\n")[0]).toBe("bwrap");
    expect(pinned.results[0]!.text.split("\n")[0]).not.toBe("bwrap");
  }, 60_000);
});

describe("a sandbox that cannot start", () => {
  it("refuses commands and says why, names what to do, and keeps the file tools", async () => {
    const world = batteryWorld();
    writeFileSync(join(world.work, "notes.txt"), "still readable\n");
    const settings = JSON.stringify({ "sandbox-bwrap": { bwrap: join(world.root, "no-such-bwrap") } });
    const { run, results } = await playCalls(
      world,
      [
        { name: "bash", arguments: { command: `echo ran > ${world.outside}/ran.txt` } },
        { name: "read", arguments: { path: "notes.txt" } },
      ],
      ["--sandbox", "--settings", settings],
      [],
    );
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["bash", true],
      ["read", false],
    ]);
    expect(results[0]!.text).toContain("cannot start bubblewrap");
    expect(results[0]!.text).toContain("apt-get install bubblewrap");
    expect(results[0]!.text).toContain('"ops": "local"');
    expect(results[1]!.text).toContain("still readable");
    expect(run.stderr).toContain("cannot start bubblewrap");
    expect(contentOf(join(world.outside, "ran.txt"))).toBeUndefined();
  }, 60_000);
});
