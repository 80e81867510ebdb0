/**
 * Starts the bundled CLI (dist/keel-cli.cjs: kernel, host, zod, commander …) through the V8 code cache:
 * compiling that ~1 MB file is otherwise the largest single cost of starting keel.
 */
import { fileURLToPath } from "node:url";
import type { MainOptions } from "./cli/main.js";
import { requireWithCodeCache } from "./code-cache.js";

type Cli = { main(argv: string[], options: MainOptions): Promise<number> };

export async function launch(argv: string[], options: MainOptions): Promise<number> {
  const bundle = requireWithCodeCache(fileURLToPath(new URL("./keel-cli.cjs", import.meta.url)));
  const code = await (bundle.exports as Cli).main(argv, options);
  bundle.saveCache();
  return code;
}

/**
 * Exits once stdout and stderr have flushed. A CLI must not wait for what the run left open: an HTTP client's
 * keep-alive socket to the provider would otherwise hold the process for seconds after the answer.
 */
export function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
