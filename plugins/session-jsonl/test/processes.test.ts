import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchTo } from "../src/context.ts";
import { loadSession } from "../src/load.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { buildSessionPlugin } from "./fixtures/build.ts";
import { startChild } from "./fixtures/child.ts";
import { options, tempDir, user } from "./helpers.ts";

const temp = tempDir();
beforeAll(() => buildSessionPlugin());
afterAll(() => temp.cleanup());

const KILLS = 100;
/** Ten sessions of ten crashes each (files stay a few MB), two sessions at a time. */
const CHAINS = 10;
const PARALLEL = 2;

/**
 * One chain of writers on one session file. Each writer appends 40 entries of 4-64 KB as fast as it can and
 * is killed with SIGKILL at an arbitrary moment (a pseudo-random 0-24 ms after it is ready), so most kills
 * land in the middle of an append. The timing only varies where the kill lands; no assertion depends on it.
 */
async function killChain(
  dir: string,
  kills: number,
  seed: number,
): Promise<{ path: string; acked: Set<string>; torn: number }> {
  const acked = new Set<string>();
  let path = "";
  let torn = 0;
  for (let k = 0; k < kills; k++) {
    const entryBytes = 4_000 + ((seed * 7_919 + k * 104_729) % 60_000);
    const child = startChild(
      k === 0
        ? ["start", dir, `w${seed}`, String(entryBytes), "40"]
        : ["resume", path, `w${seed}`, String(entryBytes), "40"],
    );
    const ready = await child.nextLine();
    expect(ready, child.stderr()).toMatch(/^ready /);
    path = ready!.slice("ready ".length);
    await new Promise((resolve) => setTimeout(resolve, (seed * 31 + k * 17) % 25));
    child.process.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
    for (let line = await child.nextLine(); line !== undefined; line = await child.nextLine())
      if (line.startsWith("ok ")) acked.add(line.slice(3));

    const session = loadSession(path);
    if (session.tornBytes > 0) torn++;
    expect(session.warnings, `after kill ${k}`).toEqual([]);
    for (const id of acked) expect(session.byId.has(id), `acknowledged entry ${id} after kill ${k}`).toBe(true);
    expect(() => branchTo(session.byId, session.leafId)).not.toThrow();
  }
  return { path, acked, torn };
}

describe("crashes and contention (real child processes)", () => {
  it(
    `kill -9 of a writer ${KILLS} times mid-append: every acknowledged entry loads and the next ` +
      `append is readable`,
    async () => {
      const chains: Awaited<ReturnType<typeof killChain>>[] = [];
      for (let i = 0; i < CHAINS; i += PARALLEL) {
        const batch = Array.from({ length: PARALLEL }, (_, j) =>
          killChain(join(temp.dir, `chain${i + j}`), KILLS / CHAINS, i + j + 1),
        );
        chains.push(...(await Promise.all(batch)));
      }
      for (const { path, acked } of chains) {
        const { recorder } = SessionRecorder.resume(path, options(undefined, { newId: () => "final" }));
        expect(recorder.readOnly).toBeUndefined();
        recorder.recordMessage(user("after the crashes"));
        recorder.close();
        const session = loadSession(path);
        expect(session.warnings).toEqual([]);
        expect(session.tornBytes).toBe(0);
        expect(session.leafId).toBe("final");
        for (const id of acked) expect(session.byId.has(id)).toBe(true);
      }
      console.info(
        `kill -9: ${chains.reduce((n, c) => n + c.torn, 0)} of ${KILLS} kills left a torn ` +
          `line; ${chains.reduce((n, c) => n + c.acked.size, 0)} acknowledged entries, none lost`,
      );
    },
    300_000,
  );

  it("a second process on the same session is refused writing, and nothing interleaves", async () => {
    const first = startChild(["start", join(temp.dir, "shared"), "A", "200", "10"]);
    const ready = await first.nextLine();
    expect(ready, first.stderr()).toMatch(/^ready /);
    const path = ready!.slice("ready ".length);

    const second = startChild(["resume", path, "B", "200", "0"]);
    expect(await second.nextLine(), second.stderr()).toMatch(
      new RegExp(
        `^readonly .* is open in process ${first.process.pid} on .*opened it read-only: nothing from now on is saved`,
      ),
    );

    // Both now append 3,000 entries at the same time; only the first one's reach the file.
    first.send("more 3000");
    second.send("more 3000");
    const finished = async (child: typeof first) => {
      for (let line = await child.nextLine(); line !== undefined; line = await child.nextLine())
        if (line.startsWith("done")) return;
    };
    await Promise.all([finished(first), finished(second)]);
    first.end();
    second.end();
    const [a, b] = await Promise.all([first.exited, second.exited]);
    expect([a.code, b.code]).toEqual([0, 0]);

    const session = loadSession(path);
    expect(session.warnings).toEqual([]);
    const texts = session.entries.map((e) => (e.type === "message" ? JSON.stringify(e.message.content) : ""));
    expect(texts.filter((t) => t.includes("B-"))).toEqual([]);
    expect(session.entries).toHaveLength(2 + 10 + 3000);
    expect(() => branchTo(session.byId, session.leafId)).not.toThrow();
    expect(branchTo(session.byId, session.leafId)).toHaveLength(session.entries.length);

    const { recorder } = SessionRecorder.resume(path, options());
    expect(recorder.readOnly).toBeUndefined();
    recorder.close();
  }, 120_000);
});
