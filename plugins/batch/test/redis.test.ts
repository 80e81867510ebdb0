import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesWithEnv } from "../../../test/support/processes.ts";
import { until } from "../../../test/support/until.ts";
import { answering, batchEnv, linesPerId, readResults, scripted, startKeel, writeTasks } from "./support/batch-env.ts";
import { startRedis, type RedisServer } from "./support/redis-server.ts";

let redis: RedisServer;
beforeAll(async () => void (redis = await startRedis()));
afterAll(async () => redis?.stop());

// A worker whose hold on a job is not renewed loses it after one second (30 by default).
const settings = (queue: string) => ["--settings", JSON.stringify({ batch: { queue, lockSeconds: 1 } })];
const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

describe("keel batch on BullMQ", () => {
  it("runs 20 tasks on workers, one killed during a job: every task has exactly one result line", async () => {
    const env = batchEnv();
    const gate = `touch started; while [ ! -f release ]; do sleep 0.05; done`;
    const held = {
      ...answering("held"),
      settings: scripted([{ toolCalls: [{ name: "bash", arguments: { command: gate } }] }, { text: "released" }]),
    };
    // A colon, which BullMQ refuses in a job id, is fine in a task's.
    const names = ["held", ...ids(18), "suite:t19"];
    writeTasks(env, [held, ...names.slice(1).map((id) => answering(id))]);
    const queue = [...settings("killed"), "--queue", redis.url];
    const batch = startKeel(
      ["batch", "tasks.jsonl", "--provider", "scripted", "--permission-mode", "full", "--concurrency", "0"].concat(
        ["--out", "out.jsonl"],
        queue,
      ),
      env,
    );
    const marker = `${process.pid}-${Date.now()}`;
    const doomed = startKeel(["worker", ...queue], env, { KEEL_BATCH_TEST_WORKER: marker });
    await until(() => existsSync(join(env.workspace, "started")));
    doomed.child.kill("SIGKILL");
    // The task it was running ends with it (the orphan guard), rather than running on unwatched.
    await until(() => processesWithEnv("KEEL_BATCH_TEST_WORKER", marker).length === 0);

    const workers = [startKeel(["worker", ...queue], env), startKeel(["worker", ...queue], env)];
    writeFileSync(join(env.workspace, "release"), "");
    expect(await batch.exited, batch.stderr()).toBe(0);
    const results = readResults(join(env.root, "out.jsonl"));
    expect(linesPerId(results)).toEqual(Object.fromEntries(names.map((id) => [id, 1])));
    for (const result of results) expect(result.reason, result.error).toBe("stop");
    expect(results.find((r) => r.id === "held")!.finalText).toBe("released");
    const ran = workers.map((w) => w.stderr()).join("");
    expect(ran).toContain("keel worker: started held");

    for (const worker of workers) worker.child.kill("SIGTERM");
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  });

  it("run again after it was killed, collects the jobs finished meanwhile without running any twice", async () => {
    const env = batchEnv();
    writeTasks(
      env,
      ids(6).map((id) => answering(id)),
    );
    const queue = [...settings("resumed"), "--queue", redis.url];
    const args = ["batch", "tasks.jsonl", "--provider", "scripted", "--concurrency", "0", "--out", "out.jsonl"];
    const worker = startKeel(["worker", ...queue], env);
    const killed = startKeel([...args, ...queue], env);
    await until(() => worker.stderr().includes("finished t2"));
    killed.child.kill("SIGKILL");
    await killed.exited;
    await until(() => worker.stderr().includes("finished t6"));

    const again = startKeel([...args, ...queue], env);
    expect(await again.exited, again.stderr()).toBe(0);
    expect(linesPerId(readResults(join(env.root, "out.jsonl")))).toEqual(
      Object.fromEntries(ids(6).map((id) => [id, 1])),
    );
    for (const id of ids(6)) expect(worker.stderr().split(`started ${id}\n`)).toHaveLength(2);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});
