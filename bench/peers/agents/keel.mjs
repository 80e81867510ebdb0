// keel from this tree (bin/keel.cjs, so `npm run build` first), over Chat Completions through provider-openai. Run
// as a command, as users run `keel` (npm links the bin), so the flags of its shebang apply.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../../bin/keel.cjs", import.meta.url));
const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));

/** @type {import("./index.mjs").Agent} */
export const keel = {
  name: `keel ${version} (this tree)`,
  wire: "openai",
  command: () => ({ file: bin, args: [] }),
  prepare: (ctx) => ({
    KEEL_HOME: ctx.home,
    OPENAI_API_KEY: "sk-bench-fake",
    OPENAI_BASE_URL: `${ctx.mockUrl}/v1`,
  }),
  printArgs: (prompt) => ["-p", prompt, "--provider", "openai", "--model", "gpt-4.1-mini"],
};
