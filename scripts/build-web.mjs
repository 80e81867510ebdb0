// Part of `npm run build`: a first-party plugin with a web UI (web/vite.config.mjs, as plugins/serve has) gets it
// built into web/dist by vite, here and never at run time. Skipped when web/dist is newer than every source, so
// the build the tests run first stays fast; vite is imported only when something is to be built.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds the web UI of each plugin folder under `pluginsDir` that has one and whose build is stale. */
export async function buildWebUis(pluginsDir) {
  for (const name of readdirSync(pluginsDir)) {
    const web = join(pluginsDir, name, "web");
    const config = join(web, "vite.config.mjs");
    if (!existsSync(config)) continue;
    const built = join(web, "dist", "index.html");
    if (existsSync(built) && statSync(built).mtimeMs >= newest(web)) continue;
    const { build } = await import("vite");
    await build({ configFile: config });
  }
}
