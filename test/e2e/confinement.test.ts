/**
 * The hostile-plugin battery of issue 25, through the real binary against the mock LLM: a plugin installed with
 * `--plugin` that declares nothing tries every escape, and a twin that declares what makes the declarable ones
 * work tries the same; the run completes either way. The provider's key is in keel's environment all along.
 */
import { createServer } from "node:http";
import { createSocket } from "node:dgram";
import { createServer as createTcpServer } from "node:net";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, runKeel } from "../support/keel-cli.ts";
import { ACME_ECHO, tempDir, writePlugin } from "../support/plugin-fixtures.ts";
import { HOSTILE_SOURCE } from "../support/hostile-plugin.ts";

const KEY = "sk-provider-secret-0451";
const SECRET = "keel-secret-7f3a";
const TOKEN = "declared-token-19";

let llm: MockLlm;
const servers: { close(): void }[] = [];
let httpUrl = "";
let tcpPort = 0;
let udpPort = 0;
const tcpHits: string[] = [];
const udpHits: string[] = [];

beforeAll(async () => {
  llm = await startMockLlm();
  const http = createServer((_req, res) => res.end("hello from the declared host"));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  httpUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}/`;
  const tcp = createTcpServer((socket) => socket.on("data", (d) => tcpHits.push(String(d))));
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  tcpPort = (tcp.address() as { port: number }).port;
  const udp = createSocket("udp4").on("message", (m) => udpHits.push(String(m)));
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  udpPort = udp.address().port;
  servers.push(http, tcp, udp);
});
afterAll(async () => {
  for (const s of servers) s.close();
  await llm.close();
});

type Report = Record<string, { ok: boolean; value?: string; error?: string }>;

async function probe(capabilities: string[]): Promise<{ report: Report; stderr: string; code: number | null }> {
  const root = tempDir("keel-confine-");
  const env = keelEnv();
  const outside = join(root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "module.mjs"), "export default 'imported';");
  writeFileSync(join(outside, "addon.node"), "not really an addon");
  const home = join(root, "user-home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY");
  writeFileSync(join(env.home, "keel.lock"), JSON.stringify({ plugins: {} }));
  const tool = capabilities.length > 0 ? "twin" : "hostile";
  const dataDir = join(env.home, "plugin-data", `cf-${tool}`);
  const section = { tool, home, keelHome: env.home, outside, dataDir, httpUrl, tcpPort, udpPort, secret: SECRET };
  writeFileSync(
    join(env.home, "settings.json"),
    JSON.stringify({ plugins: { confine: "third-party" }, [`cf-${tool}`]: section, other: { token: SECRET } }),
  );
  const dir = writePlugin(root, {
    name: `cf-${tool}`,
    keel: { contributes: { tools: [tool] }, capabilities: capabilities.map((c) => c.replace("<outside>", outside)) },
    source: HOSTILE_SOURCE,
  });
  symlinkSync(outside, join(dir, "link"));
  llm.push(
    { reply: { toolCalls: [{ id: `call_${tool}`, name: tool, arguments: {} }] } },
    { reply: { text: "Probed." } },
  );
  const before = llm.requests.length;
  const run = await runKeel(
    ["-p", "probe", "--yes", "--provider", "openai", "--model", "gpt-4.1-mini", "--plugin", dir],
    env,
    {
      extraEnv: {
        OPENAI_BASE_URL: `${llm.url}/v1`,
        OPENAI_API_KEY: KEY,
        CF_SECRET: SECRET,
        CF_TOKEN: TOKEN,
        HOME: home,
      },
    },
  );
  expect(run.stdout).toContain("Probed.");
  const { messages } = llm.requests[before + 1]!.body as { messages: { role: string; content: unknown }[] };
  const content = messages.find((m) => m.role === "tool")!.content;
  const text = typeof content === "string" ? content : (content as { text: string }[])[0]!.text;
  const report = JSON.parse(text) as Report;
  if (process.env.KEEL_DEBUG_BATTERY) console.log(JSON.stringify(report).replaceAll("},", "},\n"));
  expect(readdirSync(outside).sort()).toEqual(
    [...(tool === "twin" ? ["twin.txt"] : []), "addon.node", "module.mjs"].sort(),
  );
  return { report, stderr: run.stderr, code: run.code };
}

describe("a confined plugin", () => {
  it("that declares nothing is refused every escape, and the run completes", async () => {
    const { report, stderr, code } = await probe([]);
    expect(code).toBe(0);
    expect(report.env).toEqual({ ok: true, value: "unset" });
    for (const name of ["ssh", "settings", "lock", "write", "symlink", "newSymlink", "spawn", "fetch", "tcp", "dns"])
      expect(report[name], name).toMatchObject({ ok: false });
    expect(report.ssh!.error).toContain('declare "fs:read:');
    expect(report.spawn!.error).toContain('declare "exec');
    expect(report.fetch!.error).toContain(`declare "net:127.0.0.1:${new URL(httpUrl).port}"`);
    expect(report.proc!.value ?? "none").toBe("none");
    for (const name of ["addon", "binding", "worker", "import"])
      expect(report[name], name).toMatchObject({ ok: false });
    expect(report.vm).toEqual({ ok: true, value: "unset" });
    expect(report.eval).toEqual({ ok: true, value: "unset" });
    expect(report.fetchSeen!.value).not.toContain(KEY);
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(tcpHits).toEqual([]);
    expect(udpHits).toEqual([]);
    // keel warns once per refused capability, naming the plugin.
    expect(stderr).toMatch(/plugin cf-hostile: was refused .*"fs:read:/);
    expect(stderr.match(/"exec/g)?.length).toBe(1);
  });

  it("is allowed what it declares, and still nothing else", async () => {
    const { report, code } = await probe([
      "env:CF_TOKEN",
      "fs:read:{home}/.ssh/id_ed25519",
      "fs:write:<outside>",
      `net:127.0.0.1:${new URL(httpUrl).port}`,
      "exec",
    ]);
    expect(code).toBe(0);
    expect(report.env).toEqual({ ok: true, value: TOKEN });
    expect(report.ssh).toEqual({ ok: true, value: "PRIVATE KEY" });
    expect(report.write).toEqual({ ok: true, value: "written" });
    // A symlink it ships or makes leads nowhere new: what it may write, it writes by its own path.
    expect(report.symlink).toMatchObject({ ok: false });
    expect(report.newSymlink).toMatchObject({ ok: false });
    expect(report.spawn).toEqual({ ok: true, value: "spawned" });
    expect(report.fetch).toEqual({ ok: true, value: "hello from the declared host" });
    expect(report.import).toEqual({ ok: true, value: "imported" });
    for (const name of ["settings", "lock", "tcp", "dns", "addon", "binding", "worker"])
      expect(report[name], name).toMatchObject({ ok: false });
    expect(report.proc!.value ?? "none").toBe("none");
    expect(udpHits).toEqual([]);
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(tcpHits).toEqual([]);
  });
});

describe("on a machine without bubblewrap", () => {
  it("refuses a plugin that needs confinement, saying why, and loads it when the user opts in by name", async () => {
    const root = tempDir("keel-confine-");
    const env = keelEnv({ script: [{ toolCalls: [{ name: "echo", arguments: { text: "hi" } }] }, { text: "Done." }] });
    const dir = writePlugin(root, ACME_ECHO);
    const noBwrap = { PATH: join(root, "empty-path") };
    const settings = (extra: object) => ({ "provider-scripted": { script: "turns.json" }, plugins: extra });
    const args = (extra: object) =>
      ["-p", "echo", "--provider", "scripted", "--plugin", dir, "--settings"].concat(
        JSON.stringify(settings({ confine: "third-party", ...extra })),
      );

    const refused = await runKeel(args({}), env, { extraEnv: noBwrap });
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain("Done.");
    expect(refused.stderr).toContain("plugin acme-echo@1.2.0: skipped: it must run confined and cannot be here:");
    expect(refused.stderr).toContain("bubblewrap (bwrap) is not installed");
    expect(refused.stderr).toContain('add "acme-echo" to plugins.unconfined');

    const optedIn = await runKeel(args({ unconfined: ["acme-echo"] }), env, { extraEnv: noBwrap });
    expect(optedIn.code).toBe(0);
    expect(optedIn.stderr).toContain("runs under Node's permission model only, as plugins.unconfined asks");
    expect(optedIn.stderr).not.toContain("skipped");

    const required = await runKeel(args({ unconfined: ["acme-echo"], requireConfinement: true }), env, {
      extraEnv: noBwrap,
    });
    expect(required.stderr).toContain("this distribution requires confinement (plugins.requireConfinement)");
  });
});

describe("keel plugins", () => {
  it("says per plugin whether it runs confined or with your rights", async () => {
    const dir = writePlugin(tempDir("keel-confine-"), ACME_ECHO);
    const env = keelEnv();
    const list = async (confine: string) => {
      const settings = JSON.stringify({ plugins: { confine } });
      const run = await runKeel(["plugins", "--json", "--plugin", dir, "--settings", settings], env);
      return JSON.parse(run.stdout) as { name: string; source: string; confined: boolean }[];
    };
    const confined = await list("third-party");
    expect(confined.find((p) => p.name === "acme-echo")!.confined).toBe(true);
    expect(confined.filter((p) => p.source === "distribution").every((p) => !p.confined)).toBe(true);
    const table = await runKeel(
      ["plugins", "--plugin", dir, "--settings", '{"plugins":{"confine":"third-party"}}'],
      env,
    );
    expect(table.stdout).toMatch(/^acme-echo +1\.2\.0 +cli +\w+ +confined /m);
    expect(table.stdout).toMatch(/^@keel\/plugin-tools-fs +\S+ +distribution +\w+ +with your rights /m);
  }, 60_000);
});
