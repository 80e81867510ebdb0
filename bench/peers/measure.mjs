// One measurement of one agent: a process run to exit with its wall time (and peak RSS through /usr/bin/time), and
// what the mock saw meanwhile. Each function throws an Error whose message says exactly what went wrong.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { median } from "../lib.mjs";
import { ANSWER } from "./mock.mjs";

const TIME = "/usr/bin/time";
const TIMEOUT_MS = 120_000;
export const TOOL_TURNS = 20;
const ONE_TURN_PROMPT = "What is 2 + 2? Answer in one short sentence.";
const TOOL_PROMPT = `Call the shell tool with echo, one call per turn, ${TOOL_TURNS} times, then answer.`;

/** Why peak memory cannot be measured here, or undefined when /usr/bin/time is there. */
export const rssUnavailable = existsSync(TIME) ? undefined : `${TIME} is missing (apt-get install time)`;

/**
 * Runs `file args` to exit; with `rssFile`, under /usr/bin/time, whose %M is the peak resident set of the largest
 * process of the tree it waited for.
 * @returns {Promise<{ ms: number; code: number | null; stdout: string; stderr: string; rssMb?: number }>}
 */
export function timed(file, args, { env, cwd, rssFile = undefined }) {
  const [cmd, argv] = rssFile && !rssUnavailable ? [TIME, ["-f", "%M", "-o", rssFile, file, ...args]] : [file, args];
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const start = performance.now();
    const child = spawn(cmd, argv, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (e) => reject(new Error(`cannot start ${file}: ${e.message}`)));
    child.on("close", (code, signal) => {
      const ms = performance.now() - start;
      clearTimeout(timer);
      if (signal === "SIGKILL") return reject(new Error(`no exit within ${TIMEOUT_MS / 1000} s`));
      let rssMb;
      if (rssFile && !rssUnavailable && existsSync(rssFile)) {
        const lines = readFileSync(rssFile, "utf8").trim().split("\n");
        rssMb = Number(lines.at(-1)) / 1024;
        rmSync(rssFile);
      }
      resolve({ ms, code, stdout, stderr, rssMb });
    });
  });
}

function lastLines(text) {
  return text.trim().split("\n").slice(-3).join(" / ").slice(0, 300);
}

/** Throws unless the run exited 0 and printed the mock's answer. */
function check(run, what) {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${lastLines(run.stderr || run.stdout)}`);
  if (!run.stdout.includes(ANSWER))
    throw new Error(`${what} did not print the model's answer: ${lastLines(run.stdout)}`);
}

/**
 * @typedef {object} Subject  one agent ready to run
 * @property {{ file: string; args: string[] }} command
 * @property {import("./agents/index.mjs").Agent} agent
 * @property {Record<string, string>} env
 * @property {string} cwd
 * @property {string} home
 * @property {Awaited<ReturnType<typeof import("./mock.mjs").startPeerMock>>} mock
 */

/**
 * `--version`, spawn to exit.
 * @param {Subject} s
 */
export async function versionRun(s) {
  const run = await timed(s.command.file, [...s.command.args, "--version"], s);
  if (run.code !== 0) throw new Error(`--version exited ${run.code}: ${lastLines(run.stderr)}`);
  return run.ms;
}

/**
 * A one-shot run whose model answers text at once: wall time, peak RSS, and the first request's size.
 * @param {Subject} s
 */
export async function oneTurnRun(s) {
  s.mock.begin(0);
  const rssFile = join(s.home, "rss.txt");
  const run = await timed(s.command.file, [...s.command.args, ...s.agent.printArgs(ONE_TURN_PROMPT)], {
    ...s,
    rssFile,
  });
  check(run, "the 1-turn run");
  const seen = s.mock.seen();
  const first = seen.find((r) => r.turn) ?? seen.find((r) => r.bytes > 0);
  if (!first) throw new Error("the 1-turn run printed the answer without a request to the mock");
  const { bytes: firstBytes, tools, toolNames } = first;
  return { ms: run.ms, rssMb: run.rssMb, firstBytes, tools, toolNames, requests: seen.length };
}

/**
 * A run of TOOL_TURNS shell calls: the median gap between the requests that call the shell, as the mock saw them,
 * and the run's peak RSS.
 * @param {Subject} s
 */
export async function toolTurnsRun(s) {
  s.mock.begin(TOOL_TURNS);
  const rssFile = join(s.home, "rss.txt");
  const run = await timed(s.command.file, [...s.command.args, ...s.agent.printArgs(TOOL_PROMPT)], { ...s, rssFile });
  check(run, `the ${TOOL_TURNS}-turn run`);
  const turns = s.mock.seen().filter((r) => r.turn);
  const done = turns.at(-1)?.toolResults ?? 0;
  if (done < TOOL_TURNS) throw new Error(`only ${done} of ${TOOL_TURNS} tool results came back to the model`);
  // The first request carrying k tool results, for k below TOOL_TURNS, gets shell call k + 1: the gaps between them
  // are the agent's cost of one tool turn (other requests that offer the shell, such as a side query, are left out).
  const calling = [...Array(TOOL_TURNS).keys()].map((k) => turns.find((r) => r.toolResults === k));
  if (calling.some((r) => !r)) throw new Error("a turn's request is missing from what the mock saw");
  const gaps = calling.slice(1).map((r, i) => (r?.at ?? 0) - (calling[i]?.at ?? 0));
  return { ms: median(gaps), rssMb: run.rssMb, requests: s.mock.seen().length, turnRequests: turns.length };
}

/**
 * Node's own floors in this run, both in the agents' clean environment: `node -e 0` (time, peak RSS; an inherited
 * NODE_EXTRA_CA_CERTS alone costs it tens of ms) and a bare spawnSync of `bash -c "echo x"` from this process. The
 * clean HOME matters for bash: Node's stdio pipes are sockets, and Debian's bash sources ~/.bashrc when its stdin
 * is a socket (its ssh heuristic), which can cost hundreds of ms in a real home.
 */
export async function floorRun(env, home) {
  // Timed as `--version` is, without /usr/bin/time around it; its peak RSS from a second run under it.
  const node = await timed(process.execPath, ["-e", "0"], { env, cwd: home });
  const { rssMb } = await timed(process.execPath, ["-e", "0"], { env, cwd: home, rssFile: join(home, "rss.txt") });
  const spawns = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    spawnSync("bash", ["-c", "echo x"], { env, cwd: home });
    spawns.push(performance.now() - start);
  }
  return { nodeMs: node.ms, nodeRssMb: rssMb, spawnMs: median(spawns) };
}
