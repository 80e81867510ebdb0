// Where an installed peer's executable is, or why it is not there.
import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The executable `file` inside package `name` in the agents folder; a Node script (`viaNode`) runs through this
 * Node. Returns a reason string when it is missing.
 * @returns {{ file: string; args: string[] } | string}
 */
export function installed(agents, name, file, viaNode = false) {
  const path = join(agents, "node_modules", name, file);
  if (!existsSync(path)) return `not installed: ${path} is missing (run npm run bench:peers online once)`;
  return viaNode ? { file: process.execPath, args: [path] } : { file: path, args: [] };
}
