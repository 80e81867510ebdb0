/**
 * The file tools on the local backend while another process swaps a workspace folder for a symlink to a
 * folder outside and back, nonstop: no call may list, show or write anything outside, whichever route
 * (ripgrep or the fallback walker) it takes. Each test runs a bounded number of calls, until it has seen
 * both a call that worked and one that was refused (so the race really happened).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalOps } from "../../ops-local/src/local-ops.ts";
import { createFileTools } from "../src/tools.ts";
import { startFolderSwapper, type FolderSwapper } from "@keel/testing/ops-conformance";
import { callTool, tempFolder, toolContext } from "../../../test/support/workspace.ts";

const INSIDE = { "same.txt": "inside words\n", "inside-only.txt": "inside words\n" };
// Names and text that only exist outside; the grep pattern matches the text without spelling it out, since
// tool messages repeat the pattern.
const OUTSIDE = { "same.txt": "outside classified\n", "leaked-only.txt": "outside classified\n" };
const LEAK = /classified|leaked/;
const PATTERN = "w.rds|cl.ssified";
const MIN_TRIES = 100;
const MAX_TRIES = 600;
const PARALLEL = 4;

interface World {
  ws: string;
  outside: string;
  tools(ripgrep: boolean): ReturnType<typeof createFileTools>;
  ctx: ReturnType<typeof toolContext>;
  remove(): void;
}

function makeWorld(): World {
  const folder = tempFolder("keel-race-");
  const ws = join(folder.path, "ws");
  const outside = join(folder.path, "outside");
  mkdirSync(join(ws, "swapdir"), { recursive: true });
  mkdirSync(outside);
  for (const [name, text] of Object.entries(INSIDE)) writeFileSync(join(ws, "swapdir", name), text);
  for (const [name, text] of Object.entries(OUTSIDE)) writeFileSync(join(outside, name), text);
  const ops = createLocalOps({ cwd: ws });
  return {
    ws,
    outside,
    tools: (ripgrep) => createFileTools({ ripgrep }),
    ctx: toolContext(ops),
    remove: folder.remove,
  };
}

type Outcome = { text: string; isError: boolean };

/** Calls `call(i)` in small parallel batches until both outcomes were seen (at least MIN_TRIES, at most MAX_TRIES). */
async function race(call: (i: number) => Promise<Outcome>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const sawBoth = () => outcomes.some((o) => o.isError) && outcomes.some((o) => !o.isError);
  for (let i = 0; i < MAX_TRIES && (i < MIN_TRIES || !sawBoth()); i += PARALLEL) {
    outcomes.push(...(await Promise.all(Array.from({ length: PARALLEL }, (_, j) => call(i + j)))));
  }
  return outcomes;
}

/** The checks of every race: nothing from outside showed, and the race was real. */
function expectNoEscape(outcomes: Outcome[]): void {
  const escapes = outcomes.filter((o) => LEAK.test(o.text));
  expect(
    escapes.map((o) => o.text).slice(0, 3),
    `${escapes.length} of ${outcomes.length} calls showed outside content`,
  ).toEqual([]);
  expect(
    outcomes.some((o) => !o.isError),
    "some call worked",
  ).toBe(true);
  expect(
    outcomes.some((o) => o.isError),
    "some call was refused, so the swap raced the calls",
  ).toBe(true);
}

describe("file tools while a folder is swapped for a symlink to outside", () => {
  let world: World;
  let swapper: FolderSwapper;
  beforeEach(async () => {
    world = makeWorld();
    swapper = await startFolderSwapper(join(world.ws, "swapdir"), world.outside);
  });
  afterEach(async () => {
    await swapper.stop();
    world.remove();
  });

  for (const ripgrep of [true, false]) {
    const route = ripgrep ? "ripgrep" : "the fallback walker";

    it(`find on the folder never lists outside files (${route})`, async () => {
      const find = world.tools(ripgrep).find;
      expectNoEscape(await race(() => callTool(find, { pattern: "*", path: "swapdir" }, world.ctx)));
    }, 60_000);

    it(`find on the folder above never lists outside files (${route})`, async () => {
      const find = world.tools(ripgrep).find;
      const outcomes = await race(async () => {
        const out = await callTool(find, { pattern: "*.txt" }, world.ctx);
        // The swapped folder is sometimes missing for a moment; a listing without it counts as refused here.
        return { ...out, isError: out.isError || !out.text.includes("swapdir/") };
      });
      expectNoEscape(outcomes);
    }, 60_000);

    it(`grep on the folder never shows outside lines (${route})`, async () => {
      const grep = world.tools(ripgrep).grep;
      expectNoEscape(await race(() => callTool(grep, { pattern: PATTERN, path: "swapdir" }, world.ctx)));
    }, 60_000);

    it(`grep on the folder above never shows outside lines (${route})`, async () => {
      const grep = world.tools(ripgrep).grep;
      const outcomes = await race(async () => {
        const out = await callTool(grep, { pattern: PATTERN }, world.ctx);
        return { ...out, isError: out.isError || !out.text.includes("swapdir/") };
      });
      expectNoEscape(outcomes);
    }, 60_000);
  }

  it("ls on the folder never lists outside files", async () => {
    const { ls } = world.tools(true);
    expectNoEscape(await race(() => callTool(ls, { path: "swapdir" }, world.ctx)));
  }, 60_000);

  it("read in the folder never returns an outside file", async () => {
    const { read } = world.tools(true);
    expectNoEscape(await race(() => callTool(read, { path: "swapdir/same.txt" }, world.ctx)));
  }, 60_000);

  it("write into the folder never creates a file outside, and every file it reports is inside", async () => {
    const { write } = world.tools(true);
    const outcomes = await race((i) =>
      callTool(write, { path: `swapdir/w${i}.txt`, content: `written ${i}\n` }, world.ctx),
    );
    await swapper.stop();
    expect(readdirSync(world.outside).sort()).toEqual(Object.keys(OUTSIDE).sort());
    for (const [name, text] of Object.entries(OUTSIDE))
      expect(readFileSync(join(world.outside, name), "utf8")).toBe(text);
    const reported = outcomes.filter((o) => !o.isError).map((o) => /^Created swapdir\/(w\d+\.txt)/.exec(o.text)?.[1]);
    expect(reported.every((name) => name !== undefined)).toBe(true);
    // Every file reported is in the real folder, or in one a write made while the path was missing for a moment.
    const inside = [join(world.ws, "swapdir"), ...swapper.madeFolders()]
      .flatMap((folder) => readdirSync(folder))
      .sort();
    expect(inside).toEqual([...Object.keys(INSIDE), ...reported.map((name) => name!)].sort());
    expect(
      outcomes.some((o) => o.isError),
      "some write was refused, so the swap raced the writes",
    ).toBe(true);
    expect(reported.length).toBeGreaterThan(0);
  }, 60_000);
});
