// Claude Code's project folder at startup: process start → first provider request in a plain project, and in
// one holding a trusted `.claude/` with 20 slash commands (in subfolders), 10 subagents, 10 skills (with
// reference files) and a CLAUDE.md that imports two files, interleaved in the same run, as a ratio. Formats
// load lazily: the plain project reads none of their code (test/e2e/print-run-loads.test.ts checks it).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { interleaved, median, ms, printTable, ratio, startChatServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));

/** A project folder with `files`, and a home whose trust store trusts nothing yet (`--trust` is passed). */
function project(files) {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-formats-"));
  const cwd = join(root, "work");
  for (const [path, text] of Object.entries({ ".git/HEAD": "ref: refs/heads/main\n", ...files })) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  return { cwd, home: join(root, "home") };
}

function claudeFolder() {
  const files = {
    "CLAUDE.md": "Read @docs/style.md and @docs/testing.md before you change code.\n",
    "docs/style.md": "Two spaces.\n",
    "docs/testing.md": "npm test.\n",
  };
  for (let i = 0; i < 20; i++)
    files[`.claude/commands/${i % 2 ? "git/" : ""}cmd-${i}.md`] =
      `---\ndescription: Command ${i}\nargument-hint: [what]\nallowed-tools: Bash(git status:*), Read\n---\n` +
      `Status: !\`git status\`\nDo $ARGUMENTS.\n`;
  for (let i = 0; i < 10; i++) {
    files[`.claude/agents/agent-${i}.md`] =
      `---\nname: agent-${i}\ndescription: Agent ${i}: finds things.\ntools: Read, Grep, Glob, Bash(git *)\n` +
      `model: sonnet\ncolor: blue\n---\nYou are agent ${i}.\n`;
    files[`.claude/skills/skill-${i}/SKILL.md`] =
      `---\nname: skill-${i}\ndescription: Skill ${i}: when: you need it.\nallowed-tools:\n  - Read\n---\nSteps.\n`;
    files[`.claude/skills/skill-${i}/references/more.md`] = "More.\n";
  }
  return files;
}

/**
 * Spawn → first request (wall, ms) and the whole run's CPU time (user + system, which the machine's other load
 * hardly changes; bash's `times` reports the child's).
 */
function measure(server, where) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const before = server.arrivals.length;
    const args = [bin, "-p", "hi", "--provider", "openai", "--model", "gpt-4.1-mini", "--trust"];
    const child = spawn("bash", ["-c", '"$@" >/dev/null || exit $?; times >&2', "keel", process.execPath, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      cwd: where.cwd,
      env: { ...process.env, KEEL_HOME: where.home, OPENAI_API_KEY: "bench", OPENAI_BASE_URL: server.url },
    });
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`keel exited ${code}: ${err}`));
      if (server.arrivals.length === before) return reject(new Error("keel made no request"));
      const times = [
        ...err
          .trim()
          .split("\n")
          .at(-1)
          .matchAll(/(\d+)m([\d.]+)s/g),
      ];
      const cpu = times.slice(0, 2).reduce((sum, [, m, sec]) => sum + (Number(m) * 60 + Number(sec)) * 1000, 0);
      resolve({ wall: server.arrivals[before] - start, cpu });
    });
  });
}

const server = await startChatServer();
try {
  const plain = project({});
  const claude = project(claudeFolder());
  const samples = { plain: [], claude: [] };
  const timed = (key, where) => async () => (samples[key].push(await measure(server, where)), 0);
  await interleaved(
    [
      ["plain project", timed("plain", plain)],
      [".claude/ project", timed("claude", claude)],
    ],
    2,
    RUNS,
  );
  const of = (key, what) => median(samples[key].slice(2).map((s) => s[what]));
  printTable(`startup with Claude Code's project folder (median of ${RUNS}, interleaved)`, [
    ["project", "start → first request", "vs plain", "CPU of the run", "vs plain"],
    ["plain", ms(of("plain", "wall")), "1.00×", ms(of("plain", "cpu")), "1.00×"],
    [
      ".claude/: 20 commands, 10 agents, 10 skills, CLAUDE.md + 2 imports",
      ms(of("claude", "wall")),
      ratio(of("claude", "wall"), of("plain", "wall")),
      ms(of("claude", "cpu")),
      ratio(of("claude", "cpu"), of("plain", "cpu")),
    ],
  ]);
} finally {
  server.close();
}
