import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closedPort } from "../../../test/support/closed-port.ts";
import { runKeel } from "../../../test/support/keel-cli.ts";
import { answering, batchEnv, writeTasks } from "./support/batch-env.ts";

describe("keel batch and keel worker refuse a command line they cannot run, before any task runs", () => {
  const cases: [string, string[], string][] = [
    [
      "a concurrency of 0 without a queue",
      ["--concurrency", "0"],
      "--concurrency must be a whole number of at least 1",
    ],
    [
      "a budget that is not a number",
      ["--max-seconds", "soon"],
      '--max-seconds must be a whole number of at least 1 (got "soon")',
    ],
    ["a queue that is not Redis", ["--queue", "http://example.com"], "--queue must be a redis:// or rediss:// URL"],
    ["a results file in a folder that does not exist", ["--out", "nowhere/out.jsonl"], "cannot use the results file"],
    ["a tasks file that does not exist", [], "cannot read the tasks file missing.jsonl"],
  ];
  for (const [what, args, message] of cases)
    it(`refuses ${what}`, async () => {
      const env = batchEnv();
      writeTasks(env, [{ ...answering("t1"), workspace: { git: join(env.root, "never-cloned") } }]);
      const file = what.startsWith("a tasks file") ? "missing.jsonl" : "tasks.jsonl";
      const run = await runKeel(["batch", file, "--provider", "scripted", ...args], { cwd: env.root, home: env.home });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe("");
      expect(existsSync(join(env.home, "batch"))).toBe(false);
    });

  it("says when Redis cannot be reached, instead of waiting for it", async () => {
    const env = batchEnv();
    writeTasks(env, [answering("t1")]);
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const batch = await runKeel(["batch", "tasks.jsonl", "--queue", url], { cwd: env.root, home: env.home });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain(`keel batch: cannot reach Redis at ${url}: connect ECONNREFUSED`);
    const worker = await runKeel(["worker", "--queue", url], { cwd: env.root, home: env.home });
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain(`keel worker: cannot reach Redis at ${url}: connect ECONNREFUSED`);
  });

  it("a worker needs its queue", async () => {
    const env = batchEnv();
    const run = await runKeel(["worker"], { cwd: env.root, home: env.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("keel worker: name the queue: --queue redis://<host>:<port>");
  });
});
