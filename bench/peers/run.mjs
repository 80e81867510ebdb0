#!/usr/bin/env node
// npm run bench:peers — keel beside pi, Claude Code and Codex against one local mock model that answers at once.
// Installs the peers into bench/peers/.agents on first use, then re-runs itself inside a network namespace of its
// own (only loopback) and measures, rounds interleaved across agents so load drifts hit all alike; round 0 warms
// caches and is not counted. PEERS_RUNS (default 5) counted rounds; PEERS_ONLY=keel,pi limits the agents;
// PEERS_OUT=before writes .results/before.json instead of latest.json (for a before/after diff); PEERS_MODEL_MS=20
// makes the mock take that long before each answer, as a model would (the spare work an agent can do meanwhile,
// such as starting its next shell, then leaves the turn's path).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AGENTS } from "./agents/index.mjs";
import { ensureInstalled } from "./install.mjs";
import { agentEnv, IN_NAMESPACE, inNamespace, namespaceProbe, startPhoneHomeRecorder } from "./isolation.mjs";
import { describeMachine, watchMachine } from "./machine.mjs";
import { floorRun, oneTurnRun, toolTurnsRun, versionRun } from "./measure.mjs";
import { startPeerMock } from "./mock.mjs";
import { report } from "./report.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const agentsDir = join(here, ".agents");
const RUNS = Number(process.env.PEERS_RUNS ?? 5);
const MODEL_MS = Number(process.env.PEERS_MODEL_MS ?? 0);
const only = process.env.PEERS_ONLY?.split(",").map((s) => s.trim().toLowerCase());
const agents = AGENTS.filter((a) => !only || only.some((o) => a.name.toLowerCase().startsWith(o)));

if (!process.env[IN_NAMESPACE]) {
  // Outside: the one step that may use the network (npm), then the measuring run in its own namespace.
  const failures = ensureInstalled(
    agentsDir,
    agents.flatMap((a) => (a.npm ? [a.npm] : [])),
  );
  const probe = namespaceProbe();
  const env = { ...process.env, [IN_NAMESPACE]: probe === true ? "1" : `no namespace: ${probe}` };
  for (const [spec, why] of failures) env[`KEEL_PEERS_FAILED_${spec.replace(/\W/g, "_")}`] = why;
  const self = fileURLToPath(import.meta.url);
  const cmd = probe === true ? inNamespace(self, []) : { file: process.execPath, args: [self] };
  if (probe !== true) console.log(`warning: running without a network namespace (${probe}); the proxy still records`);
  process.exit(spawnSync(cmd.file, cmd.args, { stdio: "inherit", env }).status ?? 1);
}

// Not under /tmp: Codex refuses to set up its helper binaries in a home inside the temporary folder.
const base = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "keel-peers-"));
const mock = await startPeerMock({ answerMs: MODEL_MS });
const ownNamespace = process.env[IN_NAMESPACE] === "1";
const recorder = await startPhoneHomeRecorder(ownNamespace);
const floors = { nodeMs: [], nodeRssMb: [], spawnMs: [] };
const floorHome = join(base, "floor");
mkdirSync(join(floorHome, "tmp"), { recursive: true });
const floorEnv = agentEnv(floorHome, recorder.url, {});

/** Per agent: its subject (how to run it) or why it cannot run, and the samples of each column. */
const rows = agents.map((agent, i) => {
  const home = join(base, `home-${i}`);
  const work = join(base, `work-${i}`);
  for (const dir of [home, join(home, "tmp"), work]) mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: work });
  const failed = agent.npm && process.env[`KEEL_PEERS_FAILED_${agent.npm.replace(/\W/g, "_")}`];
  const command = failed || agent.command(agentsDir);
  const error = typeof command === "string" ? command : undefined;
  const row = { agent, home, error, phoneHome: new Set(), subject: undefined };
  const samples = { version: [], oneTurn: [], rssMb: [], perTurn: [], rssTurnsMb: [], first: [], requests: [] };
  if (typeof command === "string") return { ...row, samples };
  const env = agentEnv(home, recorder.url, agent.prepare({ home, work, mockUrl: mock.url, agents: agentsDir }));
  return { ...row, samples, subject: { agent, command, env, cwd: work, mock, home } };
});

const machine = watchMachine();
const started = performance.now();
for (let round = 0; round <= RUNS; round++) {
  for (const row of rows) {
    const floor = await floorRun(floorEnv, floorHome);
    if (round > 0) for (const k of Object.keys(floors)) if (floor[k] !== undefined) floors[k].push(floor[k]);
    if (row.error || !row.subject) continue;
    try {
      const version = await versionRun(row.subject);
      const one = await oneTurnRun(row.subject);
      const many = await toolTurnsRun(row.subject);
      if (round === 0) continue;
      row.samples.version.push(version);
      row.samples.oneTurn.push(one.ms);
      if (one.rssMb !== undefined) row.samples.rssMb.push(one.rssMb);
      row.samples.perTurn.push(many.ms);
      if (many.rssMb !== undefined) row.samples.rssTurnsMb.push(many.rssMb);
      row.samples.first.push({ bytes: one.firstBytes, tools: one.tools, toolNames: one.toolNames });
      row.samples.requests.push({ oneTurn: one.requests, toolTurns: many.requests, shellOffers: many.turnRequests });
    } catch (e) {
      row.error = `${round === 0 ? "warm-up" : `round ${round}`}: ${/** @type {Error} */ (e).message}`;
    } finally {
      for (const attempt of recorder.take()) row.phoneHome.add(attempt);
    }
  }
}
const load = machine.stop();
const wallS = (performance.now() - started) / 1000;
await mock.close();
await recorder.close();
rmSync(base, { recursive: true, force: true });

report({
  rows,
  floors,
  load,
  wallS,
  runs: RUNS,
  modelMs: MODEL_MS,
  machine: describeMachine(),
  isolation: ownNamespace
    ? `own network namespace, loopback only; direct attempts recorded at ${recorder.catchAll.join(", ")}`
    : process.env[IN_NAMESPACE],
  outFile: join(here, ".results", `${process.env.PEERS_OUT ?? "latest"}.json`),
});
