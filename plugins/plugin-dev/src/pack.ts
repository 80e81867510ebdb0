/**
 * `keel plugin pack [dir]`: the tarball npm would publish (npm's own `pack`, with no script run), its sha512,
 * and the entry a catalog (marketplace.json) lists it with.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { CatalogPluginSchema, type CatalogPlugin } from "@keel/extensions-api/catalog";

const run = promisify(execFile);

export interface Packed {
  tarball: string;
  integrity: string;
  /** A `plugins[]` entry of a catalog, ready to paste. */
  catalogEntry: CatalogPlugin;
}

export async function packPlugin(dir: string, destination: string): Promise<Packed> {
  // `--out dist` names a folder the tarball goes to: made when missing, as a build's output folder is.
  mkdirSync(destination, { recursive: true });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", destination], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
  });
  const [result] = JSON.parse(stdout) as { filename: string; integrity: string }[];
  if (!result) throw new Error(`npm pack printed no result for ${dir}`);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    version: string;
    description?: string;
    keywords?: string[];
    keel?: { capabilities?: string[] };
  };
  return {
    tarball: join(destination, result.filename),
    integrity: result.integrity,
    // Parsed with the catalog's own schema, so the entry is one `keel market add` accepts.
    catalogEntry: CatalogPluginSchema.parse({
      name: pkg.name,
      ...(pkg.description ? { description: pkg.description } : {}),
      source: `npm:${pkg.name}`,
      versions: [{ version: pkg.version, integrity: result.integrity }],
      capabilities: pkg.keel?.capabilities ?? [],
      keywords: pkg.keywords ?? [],
    }),
  };
}
