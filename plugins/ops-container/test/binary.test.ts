/**
 * The real `keel` binary on `"ops": "container"` against a real Podman, with the scripted model: a session writes,
 * edits and reads a file and runs bash; the work lands in the bind-mounted workspace, commands run in the container,
 * the folder around the workspace is untouched (the backend refuses a path out of it: the permission policy is off, so
 * that it is the backend that is tried), and nothing a command left running survives the call or keel's exit, whether
 * keel ends by itself or by SIGTERM; `keel -c` goes back to the container and mount the session recorded.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";
import { startPodman, type Podman } from "../../../test/support/podman.ts";

let podman: Podman;
beforeAll(async () => {
  podman = await startPodman();
});
afterAll(() => podman?.stop());

const settings = (more: Record<string, unknown> = {}) =>
  JSON.stringify({ ops: "container", "ops-container": { image: podman.image, socket: podman.socket, ...more } });

/** Live processes on this machine (the container's included) whose command line holds `marker`. */
function running(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!;
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(marker) && !state.startsWith("Z");
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Every file under `dir` but those under `skip`, with its content: what "untouched" compares. */
function snapshot(dir: string, skip: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (skip.some((s) => path === s || path.startsWith(`${s}/`)) || !statSync(path).isFile()) continue;
    out[name] = readFileSync(path, "utf8");
  }
  return out;
}

it("writes, edits, reads and runs bash in the container; the folder around the workspace is untouched", async () => {
  const marker = `keel-left-${randomBytes(4).toString("hex")}`;
  const env = keelEnv({
    script: [
      { toolCalls: [{ name: "write", arguments: { path: "app/main.txt", content: "version 1\n" } }] },
      {
        toolCalls: [{ name: "edit", arguments: { path: "app/main.txt", edits: [{ oldText: "1", newText: "2" }] } }],
      },
      { toolCalls: [{ name: "read", arguments: { path: "app/main.txt" } }] },
      {
        toolCalls: [{ name: "bash", arguments: { command: "cat app/main.txt /etc/keel-image; echo made > ran.txt" } }],
      },
      { toolCalls: [{ name: "write", arguments: { path: "../escaped.txt", content: "out" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: `sh -c 'sleep 1001; :' ${marker} & echo left` } }] },
      {
        toolCalls: [
          { name: "bash", arguments: { command: `ps -o args | grep -c '[${marker[0]}]${marker.slice(1)}'` } },
        ],
      },
      { text: "done" },
    ],
  });
  const root = dirname(env.cwd);
  writeFileSync(join(root, "neighbour.txt"), "next to the workspace\n");
  const before = snapshot(root, [env.cwd, env.home]);
  const run = await runKeel(
    ["-p", "go", "--mode", "json", ...SCRIPTED, "--settings", settings(), "--permission-mode", "full"],
    env,
    {
      timeoutMs: 60_000,
    },
  );
  expect(run.code, run.stderr).toBe(0);
  const results = run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; isError: boolean; result: { content: { text: string }[] } })
    .filter((event) => event.type === "tool_execution_end")
    .map((event) => ({ isError: event.isError, text: event.result.content[0]!.text }));
  expect(
    results.map((r) => r.isError),
    JSON.stringify(results),
  ).toEqual([false, false, false, false, true, false, false]);
  expect(results[2]!.text).toContain("version 2");
  expect(results[3]!.text).toBe("version 2\nkeel test image\n\n[Exit code: 0]");
  expect(results[4]!.text).toContain("outside the workspace");
  expect(results[6]!.text).toBe("0\n\n[Exit code: 1]");
  expect(readFileSync(join(env.cwd, "app/main.txt"), "utf8")).toBe("version 2\n");
  expect(readFileSync(join(env.cwd, "ran.txt"), "utf8")).toBe("made\n");
  expect(snapshot(root, [env.cwd, env.home])).toEqual(before);
  expect(running(marker)).toEqual([]);
  expect(podman.containers()).toEqual([]);
});

it("SIGTERM to keel mid-command removes the container and what ran in it", async () => {
  const marker = `keel-term-${randomBytes(4).toString("hex")}`;
  const env = keelEnv({
    script: [
      {
        toolCalls: [
          { name: "bash", arguments: { command: `sh -c 'sleep 1002; :' ${marker} & sh -c 'sleep 1003; :' ${marker}` } },
        ],
      },
      { text: "done" },
    ],
  });
  const child = spawn(
    process.execPath,
    [KEEL_BIN, "-p", "go", "--mode", "json", ...SCRIPTED, "--settings", settings(), "--permission-mode", "full"],
    {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  while (running(marker).length < 2) {
    expect(child.exitCode, stderr).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGTERM");
  expect(await exited).toBe(143);
  expect(running(marker)).toEqual([]);
  expect(podman.containers()).toEqual([]);
});

it("resumes with -c in the container and mount the session recorded, though the settings name others", async () => {
  const turns = (call: unknown) => [{ toolCalls: [call] }, { text: "done" }];
  const env = keelEnv({ script: turns({ name: "write", arguments: { path: "a.txt", content: "first\n" } }) });
  const play = (mount: string, extra: string[] = []) =>
    runKeel(
      ["-p", "go", "--mode", "json", ...SCRIPTED, "--settings", settings({ workspaceMount: mount }), ...extra],
      env,
      {
        timeoutMs: 60_000,
      },
    );
  expect((await play("/first")).code).toBe(0);
  writeFileSync(
    join(env.cwd, "turns.json"),
    JSON.stringify(turns({ name: "bash", arguments: { command: "pwd; cat a.txt" } })),
  );
  const resumed = await play("/second", ["-c"]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const end = resumed.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; result?: { content: { text: string }[] } })
    .find((event) => event.type === "tool_execution_end");
  expect(end!.result!.content[0]!.text).toBe("/first\nfirst\n\n[Exit code: 0]");
  expect(podman.containers()).toEqual([]);
});
