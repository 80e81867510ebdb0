// Installs the peers from npm into bench/peers/.agents (ignored by git), once: a later run whose installed versions
// already match reuses them without touching the network. Only `npm run bench:peers` calls this.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The installed version of `name`, or undefined. */
function installedVersion(agents, name) {
  const file = join(agents, "node_modules", name, "package.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : undefined;
}

/**
 * Makes sure each `package@version` is in `agents/node_modules`; returns a message per package that could not be
 * installed (the bench still runs the others).
 * @param {string[]} specs
 * @returns {Map<string, string>}
 */
export function ensureInstalled(agents, specs) {
  const missing = specs.filter((spec) => {
    const at = spec.lastIndexOf("@");
    return installedVersion(agents, spec.slice(0, at)) !== spec.slice(at + 1);
  });
  const failures = new Map();
  if (missing.length === 0) return failures;
  mkdirSync(agents, { recursive: true });
  const manifest = join(agents, "package.json");
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: "keel-bench-peers", private: true }));
  console.log(`installing ${missing.join(", ")} into ${agents}`);
  // Saved into the folder's own package.json so a later install keeps the others. Install scripts stay off (npm's
  // default here): the adapters run the platform packages' binaries directly.
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", ...missing], {
    cwd: agents,
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (const spec of missing)
    if (npm.status !== 0) failures.set(spec, `npm install ${spec} failed (exit ${npm.status}); see the output above`);
  return failures;
}
