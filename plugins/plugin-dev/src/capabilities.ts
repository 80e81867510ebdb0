/**
 * What a plugin's own code does, read from its sources, as the capabilities its manifest must declare to
 * cover it. A declaration is for review, not enforcement (docs/design/host.md, "What a plugin can do"), so
 * this reads imports and uses by pattern; `keel plugin validate` and the first-party shape test share it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const NEEDS: { uses: RegExp; covered: RegExp; what: string }[] = [
  {
    uses: /from "node:fs(\/promises)?"/,
    covered: /^fs:(read|write)(:|$)/,
    what: "fs:read or fs:write (it imports node:fs)",
  },
  { uses: /from "node:child_process"/, covered: /^exec(:|$)/, what: "exec (it imports node:child_process)" },
  {
    uses: /from "@keel\/provider-kit"|\bfetch\(|from "node:https?"/,
    covered: /^net:/,
    what: "net:<host> (it makes network requests)",
  },
  { uses: /process\.env\b/, covered: /^env:/, what: "env:<NAME> (it reads process.env)" },
];

function sources(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|mts|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The capabilities `src/` needs that `declared` does not cover, each saying why it is needed. */
export function missingCapabilities(pluginDir: string, declared: readonly string[]): string[] {
  const code = sources(join(pluginDir, "src"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  return NEEDS.filter(({ uses, covered }) => uses.test(code) && !declared.some((c) => covered.test(c))).map(
    ({ what }) => what,
  );
}
