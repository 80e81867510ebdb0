/**
 * Starts the bundled CLI (dist/keel-cli.cjs: kernel, host, zod, commander …) through the V8 code cache:
 * compiling that ~1 MB file is otherwise the largest single cost of starting keel.
 */
import { writeSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MainOptions } from "./cli/main.js";
import { requireWithCodeCache } from "./code-cache.js";

type Cli = { main(argv: string[], options: MainOptions): Promise<number> };

/** The oldest Node line keel runs on (package.json's `engines`; test/meta/engines.test.ts keeps them equal). */
export const OLDEST_NODE_LINE = 22;

export async function launch(argv: string[], options: MainOptions): Promise<number> {
  const line = Number(process.versions.node.split(".")[0]);
  if (line < OLDEST_NODE_LINE) {
    writeSync(
      2,
      `keel needs Node.js ${OLDEST_NODE_LINE}, 24 or 26; this is ${process.version}, which is not maintained.\n`,
    );
    return 1;
  }
  const bundle = requireWithCodeCache(fileURLToPath(new URL("./keel-cli.cjs", import.meta.url)));
  // Node ends a process whose event loop is empty, with code 0, even while `main` still awaits: a plugin awaiting a
  // promise that nothing (no timer, socket or process) will ever settle would end a run silently, as a success.
  process.once("beforeExit", stalled);
  const code = await (bundle.exports as Cli).main(argv, options);
  process.off("beforeExit", stalled);
  bundle.saveCache();
  return code;
}

function stalled(): void {
  writeSync(
    2,
    "keel stopped: the run was waiting for something that can no longer happen (a promise that no timer, " +
      "socket or process is left to settle). A plugin is stuck; KEEL_TRACE=1 shows what ran last.\n",
  );
  process.exit(70); // EX_SOFTWARE: an internal error, not the run's own outcome
}

/**
 * Exits once stdout and stderr have flushed. A CLI must not wait for what the run left open: an HTTP client's
 * keep-alive socket to the provider would otherwise hold the process for seconds after the answer.
 */
export function exitAfterFlush(code: number): void {
  // 141: stdout's reader left before all was read (cli/closed-output.ts says so through process.exitCode).
  const exit = (lost?: Error | null) =>
    process.stderr.write("", () => process.exit(lost || process.exitCode === 141 ? 141 : code));
  // Nothing waiting: no empty write, which would fail (EPIPE) on a pipe whose reader has read all and left.
  if (process.stdout.writableLength === 0) exit();
  else process.stdout.write("", exit);
}
