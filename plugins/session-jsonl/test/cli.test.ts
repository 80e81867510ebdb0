import { afterAll, describe, expect, it } from "vitest";
import { sessionsCli } from "../src/cli.ts";
import { sessionDir } from "../src/paths.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, tempDir, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

function record(cwd: string, id: string, prompt: string) {
  const r = SessionRecorder.start(sessionDir(temp.dir, cwd), id, options(cwd));
  r.recordMessage(user(prompt));
  r.recordMessage(assistant("ok"));
  r.close();
}

async function run(options: Record<string, unknown>, cwd = "/projects/alpha"): Promise<string> {
  let out = "";
  await sessionsCli.run([], options, {
    cwd,
    keelHome: temp.dir,
    distributionFile: "/nonexistent/package.json",
    inspectPlugin: async () => [],
    stdout: (t) => (out += t),
    stderr: () => undefined,
    listPlugins: () => [],
    runMode: () => Promise.reject(new Error("no session in this test")),
    openSession: () => Promise.reject(new Error("no session in this test")),
    command: "keel",
    confirm: async () => false,
    projectTrusted: false,
    changeProjectConfig: async (change) => change(),
    installPolicy: { managedFile: "/etc/keel/managed-settings.json", required: [], blocked: [], blockedCatalogs: [] },
  });
  return out;
}

describe("keel sessions", () => {
  record("/projects/alpha", "alpha-1", "first alpha prompt");
  record("/projects/beta", "beta-1", "the beta prompt");

  it("lists this folder's sessions only", async () => {
    const out = await run({});
    expect(out).toContain("first alpha prompt");
    expect(out).not.toContain("beta");
  });

  it("lists every folder's sessions with --all, naming the folder", async () => {
    const out = await run({ all: true });
    expect(out.split("\n")[0]).toMatch(/FIRST PROMPT\s+FOLDER$/);
    expect(out).toMatch(/the beta prompt\s+\/projects\/beta/);
    expect(out).toMatch(/first alpha prompt\s+\/projects\/alpha/);
  });

  it("prints JSON with --json and honours --limit", async () => {
    const sessions = JSON.parse(await run({ all: true, json: true, limit: "1" }));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ entries: 2, size: expect.any(Number), lastUse: expect.any(Number) });
  });

  it("says how sessions come to be when there are none", async () => {
    expect(await run({}, "/projects/empty")).toMatch(/^No sessions yet\. .*keel -c/);
  });
});
