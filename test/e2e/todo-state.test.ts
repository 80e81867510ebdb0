/**
 * Plugin state through the real binary: examples/todo keeps its list as `api.session` entries, and the list is
 * rebuilt right after `keel -c`, after `/tree` back to an earlier point, after `/fork`, and after a compaction
 * whose cut lies after the entries (so the resume starts past them and only the compaction can carry them).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";

const TODO = fileURLToPath(new URL("../../examples/todo", import.meta.url));
const add = (text: string) => ({ toolCalls: [{ name: "todo", arguments: { action: "add", text } }] });

/** The todo tool changes something, so the permissions plugin would ask; this user allows it. */
const ALLOW_TODO = ["--settings", '{"permissions":{"allow":["todo"]}}'];

/** Runs keel with the todo plugin and a fresh turns.json; `input` lines go to the interactive mode. */
async function keel(env: KeelEnv, args: string[], turns: unknown[] = [], input?: string) {
  writeFileSync(join(env.cwd, "turns.json"), JSON.stringify(turns));
  const run = await runKeel([...args, ...SCRIPTED, ...ALLOW_TODO, "--plugin", TODO], env, { input });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toMatch(/error|warning|unreadable/i);
  return run;
}

/** Every list `/todos` printed, in order, one string per list. */
function lists(stderr: string): string[] {
  return [...stderr.matchAll(/Todos:\n(The todo list is empty\.\n|(?:\d+\. \[[ x]\] .*\n)*)/g)].map((m) =>
    m[1]!.trimEnd(),
  );
}

function sessionFiles(env: KeelEnv): string[] {
  const root = join(env.home, "sessions");
  return readdirSync(root).flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(root, dir, f)),
  );
}

type Line = {
  type: string;
  id: string;
  customType?: string;
  plugin?: string;
  firstKeptEntryId?: string;
  pluginEntries?: unknown[];
  message?: { role: string };
};
const linesOf = (file: string): Line[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as Line);
const toolResults = (file: string) =>
  linesOf(file).filter((l) => l.type === "message" && l.message?.role === "toolResult");

describe("examples/todo through the keel binary", () => {
  it("rebuilds the list after -c, after /tree to an earlier point, and after /fork", async () => {
    const env = keelEnv();
    await keel(env, ["-p", "plan the release"], [add("write tests"), add("ship"), { text: "Planned." }]);
    const [original] = sessionFiles(env);
    expect(
      linesOf(original!)
        .filter((l) => l.type === "custom")
        .map((l) => [l.plugin, l.customType]),
    ).toEqual([
      ["keel-example-todo", "todos"],
      ["keel-example-todo", "todos"],
    ]);

    // -c: resumed, the list is what the run left.
    expect(lists((await keel(env, ["-c", "-p", "/todos"])).stderr)).toEqual(["1. [ ] write tests\n2. [ ] ship"]);

    // /tree back to just after the first item: "ship" is gone; the next item goes on from there.
    const [afterFirst, afterSecond] = toolResults(original!);
    const jumped = await keel(
      env,
      ["-c"],
      [add("docs"), { text: "Added." }],
      `/tree ${afterFirst!.id}\n/todos\nadd docs\n/todos\n`,
    );
    expect(lists(jumped.stderr)).toEqual(["1. [ ] write tests", "1. [ ] write tests\n2. [ ] docs"]);
    expect(lists((await keel(env, ["-c", "-p", "/todos"])).stderr)).toEqual(["1. [ ] write tests\n2. [ ] docs"]);

    // /fork from the point after "ship": the new session has that list; the original keeps its own.
    const forked = await keel(env, ["-c"], [], `/fork ${afterSecond!.id}\n/todos\n`);
    expect(lists(forked.stderr)).toEqual(["1. [ ] write tests\n2. [ ] ship"]);
    expect(sessionFiles(env)).toHaveLength(2);
    expect(lists((await keel(env, ["-c", "-p", "/todos"])).stderr)).toEqual(["1. [ ] write tests\n2. [ ] ship"]);
    const originalId = /_(.+)\.jsonl$/.exec(original!)![1]!;
    expect(lists((await keel(env, ["--session", originalId, "-p", "/todos"])).stderr)).toEqual([
      "1. [ ] write tests\n2. [ ] docs",
    ]);
  });

  it("keeps the list across a compaction, also when the resume starts after the entries", async () => {
    const env = keelEnv();
    const window = ["--settings", '{"compaction":{"strategy":"window","keepRecentTokens":1}}'];
    await keel(env, ["-p", "plan", ...window], [add("write tests"), add("ship"), { text: "Planned." }]);
    const compacted = await keel(
      env,
      ["-c", ...window],
      [add("docs"), { text: "Added." }],
      "add docs\n/compact\n/todos\n",
    );
    expect(compacted.stderr).toMatch(/\/compact: context went from about/);
    expect(lists(compacted.stderr)).toEqual(["1. [ ] write tests\n2. [ ] ship\n3. [ ] docs"]);

    // The compaction keeps at most the last turn, so a resume reads the file from there on: past the first entries.
    const [file] = sessionFiles(env);
    const lines = linesOf(file!);
    const compaction = lines.find((l) => l.type === "compaction")!;
    // Without a first kept entry the compaction keeps nothing, and the resume starts at the compaction itself.
    const keptAt = compaction.firstKeptEntryId
      ? lines.findIndex((l) => l.id === compaction.firstKeptEntryId)
      : lines.indexOf(compaction);
    const entryAt = lines.flatMap((l, i) => (l.type === "custom" ? [i] : []));
    expect(keptAt).toBeGreaterThan(entryAt[1]!);
    expect(compaction.pluginEntries).toHaveLength(3);

    const resumed = await keel(env, ["-c", "-p", "/todos"]);
    expect(lists(resumed.stderr)).toEqual(["1. [ ] write tests\n2. [ ] ship\n3. [ ] docs"]);
    // The model's tool works on the rebuilt list too.
    const done = await keel(
      env,
      ["-c", "-p", "finish the first"],
      [{ toolCalls: [{ name: "todo", arguments: { action: "done", id: 1 } }] }, { text: "Done." }],
    );
    expect(done.stdout).toBe("Done.\n");
    const last = toolResults(file!).at(-1) as unknown as { message: { content: { text: string }[] } };
    expect(last.message.content[0]!.text).toBe("1. [x] write tests\n2. [ ] ship\n3. [ ] docs");
  });
});
