// The peers table as printed (medians, keel's ratios to each peer and to Node's floors) and as JSON for diffing
// (bench/peers/.results/latest.json, or <PEERS_OUT>.json there, ignored by git).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { median, printTable } from "../lib.mjs";
import { rssUnavailable, TOOL_TURNS } from "./measure.mjs";

const fixed = (v, digits, unit) => (v === undefined ? "–" : `${v.toFixed(digits)} ${unit}`);
const med = (values) => (values.length ? median(values) : undefined);

/** Medians of one row's samples, with its error and the hosts it tried to reach besides the mock. */
function summarize(row) {
  const s = row.samples;
  const first = s.first[0];
  return {
    name: row.agent.name,
    npm: row.agent.npm,
    wire: row.agent.wire,
    runs: s.oneTurn.length,
    versionMs: med(s.version),
    oneTurnMs: med(s.oneTurn),
    perToolTurnMs: med(s.perTurn),
    peakRssMb: med(s.rssMb),
    peakRssTurnsMb: med(s.rssTurnsMb),
    firstRequestBytes: first?.bytes,
    tools: first?.tools,
    toolNames: first?.toolNames,
    requests: s.requests[0],
    samples: {
      versionMs: s.version,
      oneTurnMs: s.oneTurn,
      perToolTurnMs: s.perTurn,
      peakRssMb: s.rssMb,
      peakRssTurnsMb: s.rssTurnsMb,
    },
    phoneHome: [...row.phoneHome],
    error: row.error,
  };
}

const ratio = (a, b) => (a === undefined || b === undefined ? "–" : `${(a / b).toFixed(2)}×`);

export function report({ rows, floors, load, wallS, runs, modelMs, machine, isolation, outFile }) {
  const agents = rows.map(summarize);
  const floor = { nodeMs: med(floors.nodeMs), nodeRssMb: med(floors.nodeRssMb), spawnMs: med(floors.spawnMs) };
  const turnsRss = `peak RSS (${TOOL_TURNS} turns)`;
  const header = [
    "agent",
    "--version",
    "1-turn run",
    "per tool turn",
    "peak RSS (1-turn)",
    turnsRss,
    "first request",
    "note",
  ];
  const table = [header];
  for (const a of agents) {
    const first =
      a.firstRequestBytes === undefined ? "–" : `${(a.firstRequestBytes / 1024).toFixed(1)} KB (${a.tools} tools)`;
    const notes = [];
    if (a.error) notes.push(a.error);
    if (a.phoneHome.length) notes.push(`tried to reach: ${a.phoneHome.join("; ")}`);
    if (a.runs && a.runs < runs) notes.push(`${a.runs} of ${runs} runs`);
    table.push([
      a.name,
      fixed(a.versionMs, 0, "ms"),
      fixed(a.oneTurnMs, 0, "ms"),
      fixed(a.perToolTurnMs, 1, "ms"),
      rssUnavailable ? rssUnavailable : fixed(a.peakRssMb, 0, "MB"),
      rssUnavailable ? rssUnavailable : fixed(a.peakRssTurnsMb, 0, "MB"),
      first,
      notes.join(" | ") || "",
    ]);
  }
  table.push([
    "floor: node -e 0 / spawnSync(bash -c echo)",
    fixed(floor.nodeMs, 0, "ms"),
    fixed(floor.nodeMs, 0, "ms"),
    fixed(floor.spawnMs, 1, "ms"),
    fixed(floor.nodeRssMb, 0, "MB"),
    fixed(floor.nodeRssMb, 0, "MB"),
    "",
    "",
  ]);
  const model = modelMs > 0 ? `, the mock answering after ${modelMs} ms` : "";
  printTable(
    `Peers: medians of ${runs} interleaved runs, ${TOOL_TURNS} shell turns (median of the gaps)${model}`,
    table,
  );

  const keel = agents.find((a) => a.npm === undefined);
  if (keel) printRatios(keel, agents, floor, modelMs);
  const pct = (v) => `${(v * 100).toFixed(0)}%`;
  console.log(
    `\nmachine: ${machine.nproc} cores, ${machine.cpu}, Node ${machine.node}, a first touch of a 4 KB page ` +
      `${machine.pageTouchUs.toFixed(2)} µs; idle share during the run ` +
      `${pct(load.idleShare)}, busy with other processes than this bench ${pct(load.othersShare)}; ` +
      `${wallS.toFixed(0)} s; network: ${isolation}`,
  );

  mkdirSync(dirname(outFile), { recursive: true });
  const result = {
    date: new Date().toISOString(),
    machine,
    load,
    wallS,
    runs,
    modelMs,
    isolation,
    floor,
    floors,
    agents,
  };
  writeFileSync(outFile, JSON.stringify(result, null, 2) + "\n");
  console.log(`written to ${outFile}`);
}

/**
 * keel's row against each peer's and against Node's floors measured in the same run; a tool turn is compared with
 * spawnSync after the mock's `modelMs` is taken off it.
 */
function printRatios(keel, agents, floor, modelMs) {
  const turnsRss = `peak RSS (${TOOL_TURNS} turns)`;
  const ratios = [["keel ÷ …", "--version", "1-turn run", "per tool turn", "peak RSS", turnsRss, "first request"]];
  for (const a of agents.filter((a) => a !== keel))
    ratios.push([
      a.name,
      ratio(keel.versionMs, a.versionMs),
      ratio(keel.oneTurnMs, a.oneTurnMs),
      ratio(keel.perToolTurnMs, a.perToolTurnMs),
      ratio(keel.peakRssMb, a.peakRssMb),
      ratio(keel.peakRssTurnsMb, a.peakRssTurnsMb),
      ratio(keel.firstRequestBytes, a.firstRequestBytes),
    ]);
  const over = keel.perToolTurnMs === undefined ? undefined : keel.perToolTurnMs - modelMs - floor.spawnMs;
  const above = over === undefined ? "–" : `${over >= 0 ? "+" : ""}${over.toFixed(1)} ms`;
  const model = modelMs > 0 ? ` (the model's ${modelMs} ms off)` : "";
  ratios.push([
    "Node's floors",
    `${ratio(keel.versionMs, floor.nodeMs)} node -e 0`,
    `${ratio(keel.oneTurnMs, floor.nodeMs)} node -e 0`,
    `${above} over spawnSync${model}`,
    `${ratio(keel.peakRssMb, floor.nodeRssMb)} node -e 0`,
    `${ratio(keel.peakRssTurnsMb, floor.nodeRssMb)} node -e 0`,
    "",
  ]);
  printTable("keel's ratios (below 1× = keel is faster or smaller)", ratios);
}
