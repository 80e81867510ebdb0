/**
 * Confinement under a race: another process swaps a workspace folder for a symlink to a folder outside and
 * back, nonstop, while the backend reads and writes in it. A check made before the use is not enough; no call
 * may return outside content or create a file outside. Each case runs a bounded number of calls, until it has
 * seen a call that worked and one that did not (so the race really happened).
 */
import { assert, decode } from "./check.js";
import type { OpsCase, OpsWorld } from "./types.js";

const INSIDE = "inside words\n";
const OUTSIDE = "outside classified\n";
const MIN_TRIES = 60;
const MAX_TRIES = 600;
const PARALLEL = 4;

async function raceWorld(world: OpsWorld) {
  await world.files.write("ws/swapdir/same.txt", INSIDE);
  await world.files.write("outside/same.txt", OUTSIDE);
  return world.startSwapper!("ws/swapdir", "outside");
}

/** Calls `call(i)` in small parallel batches until both outcomes were seen, within the bounds. */
async function race(call: (i: number) => Promise<"worked" | "failed">): Promise<{ worked: number; failed: number }> {
  const seen = { worked: 0, failed: 0 };
  for (let i = 0; i < MAX_TRIES && (i < MIN_TRIES || seen.worked === 0 || seen.failed === 0); i += PARALLEL) {
    const batch = await Promise.all(Array.from({ length: PARALLEL }, (_, j) => call(i + j)));
    for (const outcome of batch) seen[outcome]++;
  }
  return seen;
}

export const raceCases: OpsCase[] = [
  {
    name: "never returns outside content while a folder is swapped for a symlink to outside",
    needs: ["symlinks", "race"],
    async run(world) {
      const swapper = await raceWorld(world);
      const leaks: string[] = [];
      let seen;
      try {
        seen = await race(async () => {
          try {
            const text = decode(await world.ops.readFile("swapdir/same.txt"));
            if (text !== INSIDE) leaks.push(text);
            return "worked";
          } catch {
            return "failed";
          }
        });
      } finally {
        await swapper.stop();
      }
      assert.deepEqual(leaks.slice(0, 3), [], `${leaks.length} reads returned outside content`);
      assert.ok(seen.worked > 0, "no read worked");
      assert.ok(seen.failed > 0, "no read failed, so the swap never raced a read");
    },
  },
  {
    name: "never writes outside while a folder is swapped for a symlink to outside",
    needs: ["symlinks", "race"],
    async run(world) {
      const swapper = await raceWorld(world);
      let seen;
      try {
        seen = await race(async (i) => {
          try {
            await world.ops.writeFile(`swapdir/w${i}.txt`, `written ${i}\n`);
            return "worked";
          } catch {
            return "failed";
          }
        });
      } finally {
        await swapper.stop();
      }
      assert.deepEqual(await world.files.list("outside"), ["same.txt"], "a write landed outside");
      assert.equal(decode((await world.files.read("outside/same.txt"))!), OUTSIDE);
      assert.ok(seen.worked > 0, "no write worked");
      assert.ok(seen.failed > 0, "no write failed, so the swap never raced a write");
    },
  },
];
