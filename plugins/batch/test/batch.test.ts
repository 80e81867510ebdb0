import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runKeel } from "../../../test/support/keel-cli.ts";
import { processesWithEnv } from "../../../test/support/processes.ts";
import { until } from "../../../test/support/until.ts";
import { answering, batchEnv, linesPerId, readResults, scripted, startKeel, writeTasks } from "./support/batch-env.ts";

const batch = (file: string, ...more: string[]) => ["batch", file, "--provider", "scripted", ...more];
const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

describe("keel batch on the embedded queue", () => {
  it("runs every task, one result line each, and names a bad line without losing a task", async () => {
    const env = batchEnv();
    const lines: (object | string)[] = ids(8).map((id) => answering(id));
    lines.splice(5, 0, '{"id": "t6b", "prompt": oops}');
    writeTasks(env, lines);
    const run = await runKeel(
      batch("tasks.jsonl", "--out", "out.jsonl"),
      { cwd: env.root, home: env.home },
      { timeoutMs: 150_000 }, // nine keel processes: a minute was not enough under load
    );
    expect(run.stderr).toContain("keel batch: tasks.jsonl:6: is not JSON (");
    expect(run.code).toBe(1);
    const results = readResults(join(env.root, "out.jsonl"));
    expect(linesPerId(results)).toEqual(Object.fromEntries(ids(8).map((id) => [id, 1])));
    for (const result of results) {
      expect(result).toMatchObject({ reason: "stop", finalText: `answer ${result.id}`, turns: 1 });
      expect(result.usage).toMatchObject({ input: 10, output: 2 });
      expect(result.workspace).toBe(env.workspace);
      expect(readFileSync(result.sessionFile!, "utf8")).toContain(`task ${result.id}`);
    }
  });

  it("killed (SIGKILL) during a job and run again, gives every one of 20 tasks exactly one result line", async () => {
    const env = batchEnv();
    const gate = `touch started; while [ ! -f release ]; do sleep 0.05; done`;
    const held = {
      ...answering("held"),
      settings: scripted([{ toolCalls: [{ name: "bash", arguments: { command: gate } }] }, { text: "released" }]),
    };
    const names = [...ids(9), "held", ...ids(19).slice(9)];
    writeTasks(
      env,
      names.map((id) => (id === "held" ? held : answering(id))),
    );
    const args = batch("tasks.jsonl", "--out", "out.jsonl", "--concurrency", "2", "--permission-mode", "full");
    const marker = `${process.pid}-${Date.now()}`;
    const killed = startKeel(args, env, { KEEL_BATCH_TEST_RUN: marker });
    await until(() => existsSync(join(env.workspace, "started")));
    killed.child.kill("SIGKILL");
    // Its running tasks end with it (the orphan guard), rather than running on unwatched.
    await until(() => processesWithEnv("KEEL_BATCH_TEST_RUN", marker).length === 0);
    expect(readResults(join(env.root, "out.jsonl")).map((r) => r.id)).not.toContain("held");

    writeFileSync(join(env.workspace, "release"), "");
    const again = await runKeel(args, { cwd: env.root, home: env.home }, { timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const results = readResults(join(env.root, "out.jsonl"));
    expect(linesPerId(results)).toEqual(Object.fromEntries(names.map((id) => [id, 1])));
    for (const result of results) expect(result.reason, result.error).toBe("stop");
  });

  it("passes every --settings on to the tasks, and sums up the reasons", async () => {
    const env = batchEnv();
    writeTasks(env, [{ id: "t1", prompt: "go", workspace: "w" }]);
    const script = scripted([{ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "not reached" }]);
    const run = await runKeel(
      batch("tasks.jsonl", "--settings", JSON.stringify(script), "--settings", '{"loop":{"maxSteps":1}}'),
      { cwd: env.root, home: env.home },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: "t1", reason: "max_steps", turns: 1 });
    expect(run.stderr).toContain("keel batch: 1 of 1 tasks ended (1 max_steps)\n");
  });

  it("skips the tasks the results file has, and runs again one whose line was cut short", async () => {
    const env = batchEnv();
    const earlier = ["t1", "t2"].map((id) => JSON.stringify({ id, reason: "stop", finalText: "earlier" }));
    writeFileSync(join(env.root, "out.jsonl"), `${earlier.join("\n")}\n{"id":"t3","reas`);
    // Were t1 and t2 run again, their missing workspace would give them a second line.
    const missing = (id: string) => ({ ...answering(id), workspace: "missing" });
    writeTasks(env, [missing("t1"), missing("t2"), answering("t3"), answering("t4")]);
    const run = await runKeel(batch("tasks.jsonl", "--out", "out.jsonl"), { cwd: env.root, home: env.home });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("out.jsonl:3 is not a result line; its task, if any, runs again");
    expect(run.stderr).toContain("2 of 4 tasks have results; skipped");
    const lines = readFileSync(join(env.root, "out.jsonl"), "utf8").trim().split("\n");
    expect(lines[2]).toBe('{"id":"t3","reas');
    const results = [...lines.slice(0, 2), ...lines.slice(3)].map((l) => JSON.parse(l) as { id: string });
    expect(results).toMatchObject([
      { id: "t1", finalText: "earlier" },
      { id: "t2", finalText: "earlier" },
      { reason: "stop" },
      { reason: "stop" },
    ]);
    expect(
      results
        .slice(2)
        .map((r) => r.id)
        .sort(),
    ).toEqual(["t3", "t4"]);
  });

  it("ends a task at its budget of turns, tokens or seconds, with that reason", async () => {
    const env = batchEnv();
    const listing = { toolCalls: [{ name: "ls", arguments: {} }] };
    writeTasks(env, [
      { id: "turns", prompt: "go", workspace: "w", settings: scripted([listing, { text: "not reached" }]) },
      {
        id: "tokens",
        prompt: "go",
        workspace: "w",
        budget: { tokens: 50, turns: 5 },
        settings: scripted([{ ...listing, usage: { input: 40, output: 20 } }, { text: "not reached" }]),
      },
      {
        id: "seconds",
        prompt: "go",
        workspace: "w",
        // Long enough for keel to start and save its session on a loaded machine (at 1 s, and at 5 s under a load
        // of 20 on 2 cores, keel was stopped before it had one), well below the command's 30 s.
        budget: { seconds: 10 },
        settings: scripted([{ toolCalls: [{ name: "bash", arguments: { command: "sleep 30" } }] }]),
      },
    ]);
    const run = await runKeel(
      batch("tasks.jsonl", "--out", "out.jsonl", "--max-turns", "1", "--permission-mode", "full"),
      { cwd: env.root, home: env.home },
      { timeoutMs: 60_000 },
    );
    expect(run.code).toBe(0);
    const byId = Object.fromEntries(readResults(join(env.root, "out.jsonl")).map((r) => [r.id, r]));
    expect(byId.turns).toMatchObject({ reason: "budget_turns", turns: 1 });
    expect(byId.tokens).toMatchObject({ reason: "budget_tokens", error: "used 60 tokens, over its budget of 50" });
    expect(byId.seconds).toMatchObject({ reason: "budget_seconds", error: "ran past its budget of 10 s" });
    // Stopped by SIGTERM, keel still saved the session.
    expect(existsSync(byId.seconds!.sessionFile!)).toBe(true);
  });

  it("clones a git workspace at its ref, and refuses transports that run commands", async () => {
    const env = batchEnv();
    const repo = join(env.root, "repo");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    writeFileSync(join(repo, "which.txt"), "one\n");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "empty");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one");
    git("tag", "v1");
    writeFileSync(join(repo, "which.txt"), "two\n");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "two");
    const pwned = join(env.root, "pwned");
    writeTasks(env, [
      { ...answering("at-tag"), workspace: { git: "repo", ref: "v1" } },
      { ...answering("at-branch"), workspace: { git: "repo", ref: "main" } },
      { ...answering("no-ref"), workspace: { git: "repo", ref: "nope" } },
      { ...answering("ext"), workspace: { git: `ext::sh -c touch% ${pwned}` } },
      // git allows `fd::` unless told otherwise: only the batch's own list refuses it.
      { ...answering("fd"), workspace: { git: "fd::9" } },
    ]);
    const run = await runKeel(batch("tasks.jsonl"), { cwd: env.root, home: env.home });
    expect(run.code).toBe(0);
    const byId = Object.fromEntries(
      run.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: string; workspace: string; reason: string; error?: string })
        .map((r) => [r.id, r]),
    );
    expect(byId["at-tag"]!.reason).toBe("stop");
    expect(byId["at-tag"]!.workspace.startsWith(join(env.home, "batch", "work", "at-tag-"))).toBe(true);
    expect(readFileSync(join(byId["at-tag"]!.workspace, "which.txt"), "utf8")).toBe("one\n");
    expect(readFileSync(join(byId["at-branch"]!.workspace, "which.txt"), "utf8")).toBe("two\n");
    expect(byId["no-ref"]).toMatchObject({ reason: "setup_error" });
    expect(byId["no-ref"]!.error).toContain("no commit, tag or branch is named nope");
    expect(byId.ext!.error).toContain("transport 'ext' not allowed");
    expect(existsSync(pwned)).toBe(false);
    expect(byId.fd!.error).toContain("transport 'fd' not allowed");
  });

  it("runs a task with the built distribution it names, sessions in that agent's home", async () => {
    const env = batchEnv();
    const manifest = fileURLToPath(
      new URL("../../../distributions/readonly-reviewer/distribution.json", import.meta.url),
    );
    const built = await runKeel(["dist", "build", manifest, "--out", "reviewer"], { cwd: env.root, home: env.home });
    expect(built.code, built.stderr).toBe(0);
    writeTasks(env, [
      { ...answering("built", "reviewed"), distribution: "reviewer" },
      { ...answering("manifest"), distribution: manifest },
    ]);
    const reviewerHome = join(env.root, "reviewer-home");
    const run = await runKeel(
      batch("tasks.jsonl"),
      { cwd: env.root, home: env.home },
      {
        extraEnv: { REVIEWER_HOME: reviewerHome },
      },
    );
    expect(run.code).toBe(0);
    const [built1, manifest1] = ["built", "manifest"].map((id) =>
      run.stdout
        .trim()
        .split("\n")
        .map(
          (l) =>
            JSON.parse(l) as { id: string; reason: string; finalText: string; sessionFile?: string; error?: string },
        )
        .find((r) => r.id === id),
    );
    expect(built1).toMatchObject({ reason: "stop", finalText: "reviewed" });
    expect(built1!.sessionFile!.startsWith(join(reviewerHome, "sessions"))).toBe(true);
    expect(manifest1!.reason).toBe("setup_error");
    expect(manifest1!.error).toContain("is not a built agent");
    expect(manifest1!.error).toContain("keel dist build <manifest> --out <folder>");
  });

  it("a task whose process crashes loses only itself, and its result says what it printed", async () => {
    const env = batchEnv();
    // An agent that dies at once, as a keel process does when a plugin takes its heap.
    const agent = join(env.root, "crashing");
    mkdirSync(join(agent, "bin"), { recursive: true });
    writeFileSync(
      join(agent, "package.json"),
      JSON.stringify({ keelDistribution: { command: "crashing" }, bin: { crashing: "bin/crashing.cjs" } }),
    );
    writeFileSync(
      join(agent, "bin", "crashing.cjs"),
      'process.stderr.write("FATAL: heap out of memory\\n");\nprocess.exit(134);\n',
    );
    writeTasks(env, [answering("before"), { ...answering("crash"), distribution: "crashing" }, answering("after")]);
    const run = await runKeel(batch("tasks.jsonl", "--concurrency", "1"), { cwd: env.root, home: env.home });
    expect(run.code).toBe(0);
    const results = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; reason: string; error?: string });
    expect(results.map((r) => [r.id, r.reason])).toEqual([
      ["before", "stop"],
      ["crash", "crashed"],
      ["after", "stop"],
    ]);
    expect(results[1]!.error).toBe("keel ended (code 134) without finishing the run: FATAL: heap out of memory");
  });

  it("interrupted, writes no line for the tasks it stopped; run again, it finishes them", async () => {
    const env = batchEnv();
    const gate = `touch started; while [ ! -f release ]; do sleep 0.05; done`;
    const waiting = {
      ...answering("waiting"),
      settings: scripted([{ toolCalls: [{ name: "bash", arguments: { command: gate } }] }, { text: "released" }]),
    };
    writeTasks(env, [answering("first"), waiting, answering("last")]);
    const args = batch("tasks.jsonl", "--out", "out.jsonl", "--concurrency", "1", "--permission-mode", "full");
    const interrupted = startKeel(args, env);
    await until(() => existsSync(join(env.workspace, "started")));
    interrupted.child.kill("SIGTERM");
    expect(await interrupted.exited).toBe(143);
    expect(readResults(join(env.root, "out.jsonl")).map((r) => r.id)).toEqual(["first"]);

    writeFileSync(join(env.workspace, "release"), "");
    const again = await runKeel(args, { cwd: env.root, home: env.home });
    expect(again.code).toBe(0);
    const results = readResults(join(env.root, "out.jsonl"));
    expect(results.map((r) => [r.id, r.reason])).toEqual([
      ["first", "stop"],
      ["waiting", "stop"],
      ["last", "stop"],
    ]);
    expect(results[1]!.finalText).toBe("released");
  });
});
