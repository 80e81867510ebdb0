// The sandbox's added latency per `bash` call: `bash({ command: "true" })` through the real tool on the sandbox
// backend (bubblewrap around the local spawn), as a ratio to the same tool on the unsandboxed local backend in
// the same run (interleaved, medians). A bare `bwrap … true` spawn shows what bubblewrap alone costs.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bashToolCase, importSource, interleaved, median, ms, printTable, ratio } from "./lib.mjs";

/** @type {typeof import("../plugins/ops-local/src/local-ops.ts")} */
const { createLocalOps } = await importSource("plugins/ops-local/src/local-ops.ts");
/** @type {typeof import("../plugins/sandbox-bwrap/src/sandbox-ops.ts")} */
const { SandboxOps } = await importSource("plugins/sandbox-bwrap/src/sandbox-ops.ts");
/** @type {typeof import("../plugins/sandbox-bwrap/src/bwrap-args.ts")} */
const { bwrapArgs } = await importSource("plugins/sandbox-bwrap/src/bwrap-args.ts");
/** @type {typeof import("../plugins/sandbox-bwrap/src/layout.ts")} */
const { planLayout } = await importSource("plugins/sandbox-bwrap/src/layout.ts");
/** @type {typeof import("../plugins/sandbox-bwrap/src/settings.ts")} */
const { SandboxSettingsSchema } = await importSource("plugins/sandbox-bwrap/src/settings.ts");

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 100);
const WARMUP = 10;
const dir = mkdtempSync(join(tmpdir(), "keel-bench-sandbox-"));
const cwd = join(dir, "workspace");
mkdirSync(cwd);

const local = createLocalOps({ cwd });
const { layout } = planLayout(local.cwd, SandboxSettingsSchema.parse({}));
const sandbox = new SandboxOps({ inner: local, bwrap: "bwrap", layout });
const args = bwrapArgs(layout);
const refusal = await sandbox.probe();
if (refusal) throw new Error(refusal);

function bareBwrap() {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn("bwrap", [...args, "--", "true"], { cwd });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`bwrap … true exited ${code}`)),
    );
  });
}

/** @type {[string, () => Promise<number>][]} */
const cases = [
  ["bash tool: true, local backend", await bashToolCase(local, join(dir, "data"))],
  ["bash tool: true, sandbox backend", await bashToolCase(sandbox, join(dir, "data"))],
  ["bare spawn(bwrap … true)", bareBwrap],
];
const samples = await interleaved(cases, WARMUP, RUNS);
rmSync(dir, { recursive: true, force: true });

const base = median(samples[0]);
printTable(`sandbox cost per bash call (${RUNS} runs each, interleaved, medians)`, [
  ["case", "median", "vs local backend"],
  ...cases.map(([name], k) => [name, ms(median(samples[k])), ratio(median(samples[k]), base)]),
]);
console.log(`\nadded per call: ${ms(median(samples[1]) - base)}`);
