/**
 * ops-container loaded by the real host as the active backend (`"ops": "container"`), with the real file tools
 * and bash, driven by the scripted model, against a real Podman: the tools work unchanged in the container, a
 * timeout or the session's end leaves nothing running, the container goes with the session, the project's
 * devcontainer.json counts only once the folder is trusted, and a backend that cannot start says why in every
 * tool result.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createTestKit, type TestKitOptions } from "@keel/testing";
import { textOf } from "@keel/extensions-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPodman, type Podman } from "../../../test/support/podman.ts";

const plugins = ["ops-local", "ops-container", "tools-fs", "tool-bash"].map((name) => resolve("plugins", name));

let podman: Podman;
beforeAll(async () => {
  podman = await startPodman();
});
afterAll(() => podman?.stop());

/**
 * Runs the script's tool calls in a kit on the container backend; returns the results, the kit's cwd and the
 * workspace's files named in `read` as they were at the end (the kit removes its workspace).
 */
async function session(
  calls: { name: string; arguments: Record<string, unknown> }[][],
  options: Partial<TestKitOptions> & { container?: Record<string, unknown>; read?: string[] } = {},
) {
  const kit = await createTestKit({
    plugins,
    ...options,
    settings: {
      ops: "container",
      "ops-container": { image: podman.image, socket: podman.socket, ...options.container },
      ...options.settings,
    },
    script: [...calls.map((toolCalls) => ({ toolCalls })), { text: "done" }],
  });
  try {
    await kit.run("go");
    const results = kit.toolResults().map((m) => ({ text: textOf(m), isError: m.isError }));
    const files = (options.read ?? []).map((file) => readFileSync(join(kit.cwd, file), "utf8"));
    return { results, cwd: kit.cwd, problems: kit.problems(), files };
  } finally {
    await kit.dispose();
  }
}

describe("the container backend through the host", () => {
  it("writes, edits and reads a file and runs bash in the container; the container goes with the session", async () => {
    const { results, cwd, problems, files } = await session(
      [
        [{ name: "write", arguments: { path: "notes/todo.txt", content: "one\ntwo\n" } }],
        [{ name: "edit", arguments: { path: "notes/todo.txt", edits: [{ oldText: "two", newText: "2" }] } }],
        [{ name: "read", arguments: { path: "notes/todo.txt" } }],
        [{ name: "bash", arguments: { command: "cat notes/todo.txt /etc/keel-image && pwd" } }],
        [{ name: "grep", arguments: { pattern: "^2$" } }],
      ],
      { read: ["notes/todo.txt"] },
    );
    expect(problems).toEqual([]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false, false]);
    expect(results[2]!.text).toContain("one\n2");
    expect(results[3]!.text).toBe(`one\n2\nkeel test image\n${cwd}\n\n[Exit code: 0]`);
    expect(results[4]!.text).toContain("notes/todo.txt:2: 2");
    expect(files).toEqual(["one\n2\n"]);
    expect(podman.containers()).toEqual([]);
  });

  it("kills a command at its timeout with every process it started, and one's leftovers after it", async () => {
    const { results } = await session([
      [{ name: "bash", arguments: { command: "setsid sleep 4101 & sleep 4102", timeout: 1 } }],
      [{ name: "bash", arguments: { command: "(sleep 4103 &); echo left" } }],
      [{ name: "bash", arguments: { command: "ps -o args | grep 'sleep 410[0-9]' || echo none" } }],
    ]);
    expect(results[0]!.text).toContain("[Timed out after 1 s");
    expect(results[1]!.text).toBe("left\n\n[Exit code: 0]");
    expect(results[2]!.text).toBe("none\n\n[Exit code: 0]");
  });

  it("cuts a long output for the model, and a command in the container can read the full output it names", async () => {
    const logs = "find / -path /proc -prune -o -name 'bash-*.log' -print";
    const { results } = await session([
      [{ name: "bash", arguments: { command: "seq 1 100000" } }],
      [{ name: "bash", arguments: { command: `wc -l $(${logs}) | cut -d' ' -f1; tail -n 1 $(${logs})` } }],
    ]);
    expect(results[0]!.text).toMatch(
      /\[Output truncated: showing lines \d+-100000 of 100000 .*Full output: \/.+\.log\]/,
    );
    expect(results[1]!.text).toBe("100000\n100000\n\n[Exit code: 0]");
  });

  it("runs a background process, fed and waited on through the process tool", async () => {
    const { results } = await session([
      [{ name: "bash", arguments: { command: 'read -r line; echo "got $line"', background: true } }],
      [{ name: "process", arguments: { action: "write", id: "1", input: "hello\n" } }],
      [{ name: "process", arguments: { action: "wait", id: "1", timeout: 30 } }],
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false]);
    expect(results[2]!.text).toContain("got hello");
  });

  it("takes the image, folder, environment and user from a trusted project's devcontainer.json", async () => {
    const files = {
      ".devcontainer/devcontainer.json": JSON.stringify({
        image: podman.image,
        workspaceFolder: "/src",
        containerEnv: { FROM_DEVCONTAINER: "yes" },
        remoteUser: "1000",
      }),
    };
    const command = 'echo "$FROM_DEVCONTAINER $(id -u) $(pwd)"';
    const trusted = await session([[{ name: "bash", arguments: { command } }]], {
      files,
      trust: true,
      container: { image: undefined },
    });
    expect(trusted.results[0]!.text).toBe("yes 1000 /src\n\n[Exit code: 0]");
    const untrusted = await session([[{ name: "bash", arguments: { command } }]], { files });
    expect(untrusted.results[0]!.text).toMatch(/^ 0 \/tmp\/.+\n\n\[Exit code: 0\]$/);
  });

  it("names a trusted project's devcontainer.json that cannot be read, in each tool result", async () => {
    const { results } = await session([[{ name: "bash", arguments: { command: "true" } }]], {
      files: { ".devcontainer.json": '{ "image": ' },
      trust: true,
    });
    expect(results[0]!.isError).toBe(true);
    expect(results[0]!.text).toContain(".devcontainer.json is not valid JSON with comments");
  });

  it("says in each tool result why the container cannot start", async () => {
    const missing = join(podman.socket, "..", "no-engine.sock");
    const unreachable = await session([[{ name: "bash", arguments: { command: "true" } }]], {
      container: { socket: missing },
    });
    expect(unreachable.results[0]!.isError).toBe(true);
    expect(unreachable.results[0]!.text).toContain(`The container engine at ${missing} does not answer`);
    const { results, problems } = await session([[{ name: "bash", arguments: { command: "true" } }]], {
      container: { image: "localhost/keel-missing:1" },
    });
    expect(problems.join("\n")).toContain("Pulling the image localhost/keel-missing:1, which this machine does not");
    expect(results[0]!.isError).toBe(true);
    expect(results[0]!.text).toContain(
      "The image localhost/keel-missing:1 is not on this machine and could not be pulled",
    );
  });
});
