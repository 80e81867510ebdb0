/**
 * Building a distribution: a folder with a package.json whose `keelDistribution` is the manifest resolved
 * (plugin folders and settings), the plugins, keel's runtime and what they all need, and `bin/<command>.cjs`,
 * which runs the agent under its own name with its own home. `link` builds the same folder pointing at the
 * plugins and the runtime where they are installed, for `dist run`.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import {
  DistributionManifestSchema,
  distributionSettings,
  type CliContext,
  type DistributionField,
  type DistributionManifest,
} from "@keel/extensions-api";
import type { CatalogRecord } from "@keel/installer";
import { catalogTarget, readTrustedCatalogs, type FetchTarget } from "./catalog-sources.ts";
import { BUNDLED, fetchPlugins } from "./fetch.ts";
import { findPackage, runtimeClosure } from "./packages.ts";
import { resolvePlugin, type ResolvedPlugin } from "./resolve.ts";

export type BuildResult = { ok: true; out: string; bin: string; command: string } | { ok: false; problems: string[] };

export interface BuildOptions {
  context: Pick<CliContext, "distributionFile" | "keelHome" | "listPlugins" | "stderr">;
  link: boolean;
  /** The npm registry `npm` plugins come from (`marketplace.registry`). */
  registry?: string;
  /** Whether a catalog may give a git or a remote-URL source (`--allow-git`, `--allow-remote`). */
  allowGit?: boolean;
  allowRemote?: boolean;
}

export async function buildDistribution(file: string, out: string, options: BuildOptions): Promise<BuildResult> {
  const manifest = readManifest(file);
  if (typeof manifest === "string") return { ok: false, problems: [manifest] };
  if (existsSync(out)) return { ok: false, problems: [`${out} already exists; name a new folder with --out.`] };
  const { distributionFile } = options.context;
  const { records: catalogs, problems } = await readTrustedCatalogs(manifest, file);
  const plugins: ResolvedPlugin[] = [];
  const fetched: FetchTarget[] = [];
  for (const plugin of manifest.plugins) {
    if (plugin.source === "npm") {
      fetched.push({ plugin, source: { kind: "npm", name: plugin.name, range: plugin.version } });
      continue;
    }
    const resolved = plugin.source.startsWith("catalog:")
      ? await catalogTarget(plugin, catalogs, file)
      : resolvePlugin(plugin, file, distributionFile);
    if (typeof resolved === "string") problems.push(resolved);
    else if ("source" in resolved) fetched.push(resolved);
    else plugins.push(resolved);
  }
  const core = findPackage(dirname(distributionFile), "@keel/core");
  if (!core) problems.push(`keel's runtime (@keel/core) is not installed beside ${distributionFile}.`);
  if (problems.length > 0 || !core) return { ok: false, problems };
  try {
    return await assemble(manifest, file, out, core, { plugins, fetched, catalogs }, options);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    return { ok: false, problems: [(error as Error).message] };
  }
}

/** Writes the folder; on a problem, removes what it wrote, so a failed build leaves nothing. */
async function assemble(
  manifest: DistributionManifest,
  file: string,
  out: string,
  core: string,
  parts: { plugins: ResolvedPlugin[]; fetched: FetchTarget[]; catalogs: CatalogRecord[] },
  options: BuildOptions,
): Promise<BuildResult> {
  const { plugins, catalogs } = parts;
  const problems: string[] = [];
  const fetched = await fetchPlugins(parts.fetched, out, {
    cwd: dirname(file),
    registry: options.registry,
    cache: join(options.context.keelHome, "cache", "npm"),
    allowGit: options.allowGit ?? false,
    allowRemote: options.allowRemote ?? false,
    known: new Map([
      ...options.context.listPlugins().map((p) => [p.name, p.version] as const),
      ...plugins.map((p) => [p.plugin.name, p.plugin.version] as const),
    ]),
    log: (text) => options.context.stderr(`dist: ${text}\n`),
  });
  if (fetched.problems.length > 0) {
    rmSync(out, { recursive: true, force: true });
    return { ok: false, problems: fetched.problems };
  }

  // In the manifest's order: the order is which plugin keeps a clashing name.
  const dirOf = (name: string, copied: Map<string, string>) => copied.get(name) ?? fetched.dirs.get(name)!;
  let pluginDirs: string[];
  let launch: string;
  if (options.link) {
    const local = new Map(plugins.map((p) => [p.plugin.name, p.dir]));
    pluginDirs = manifest.plugins.map((p) => dirOf(p.name, local));
    launch = join(core, "dist", "launch.cjs");
  } else {
    const runtime = runtimeClosure([core, ...plugins.map((p) => p.dir)], problems);
    if (problems.length > 0) {
      rmSync(out, { recursive: true, force: true });
      return { ok: false, problems };
    }
    const copied = new Map(plugins.map((p) => [p.plugin.name, copyPlugin(p, out)]));
    // Hashed into the folder's keel.lock like the npm ones: the host refuses a changed copy at load.
    const { recordCopied } = await import("@keel/installer");
    for (const p of plugins) recordCopied(BUNDLED(out), p.plugin.name, p.plugin.source);
    pluginDirs = manifest.plugins.map((p) => dirOf(p.name, copied));
    for (const pkg of [{ dir: core, name: "@keel/core" }, ...runtime])
      copyFolder(pkg.dir, join(out, "node_modules", pkg.name));
    // The file itself, beside the launcher: by its package name, Node would load its ES module resolver to read
    // @keel/core's `exports` on every start (as bin/keel.cjs avoids too).
    launch = join("..", "node_modules", "@keel", "core", "dist", "launch.cjs");
  }
  mkdirSync(join(out, "bin"), { recursive: true });
  // The agent's marketplace reads its trusted catalogs from here (`catalogs/<name>.json`), as `market add` keeps them.
  if (catalogs.length > 0) {
    const { keepCatalog } = await import("@keel/installer");
    for (const record of catalogs) keepCatalog(out, record);
  }
  writePackage(out, manifest, pluginDirs);
  const bin = join(out, "bin", `${manifest.command}.cjs`);
  writeFileSync(bin, launcher(manifest.command, launch));
  chmodSync(bin, 0o755);
  return { ok: true, out, bin, command: manifest.command };
}

function readManifest(file: string): DistributionManifest | string {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return `cannot read the distribution manifest ${file}: ${(error as Error).message}`;
  }
  const parsed = DistributionManifestSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`);
  return `the distribution manifest ${file} is invalid: ${issues.join("; ")}`;
}

/** A plugin's files in the folder's scope, named after its package; its own dependencies go to the runtime. */
function copyPlugin({ plugin, dir }: ResolvedPlugin, out: string): string {
  const target = join(BUNDLED(out).root, "plugins", plugin.name);
  copyFolder(dir, target, /^node_modules(\/|$)/);
  return target;
}

/** Copies a package; its tests and build caches stay behind (nothing at run time reads them). */
function copyFolder(from: string, to: string, alsoSkip?: RegExp): void {
  cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (src) => {
      const rel = relative(from, src);
      return !/^(test|\.build)(\/|$)/.test(rel) && !rel.endsWith(".tsbuildinfo") && !alsoSkip?.test(rel);
    },
  });
}

function writePackage(out: string, manifest: DistributionManifest, pluginDirs: string[]): void {
  const keelDistribution: DistributionField = {
    command: manifest.command,
    plugins: pluginDirs.map((dir) => (dir.startsWith(out) ? relative(out, dir) : dir)),
    settings: distributionSettings(manifest),
    promptAdditions: manifest.promptAdditions,
    locked: manifest.locked,
    catalogs: manifest.catalogs,
    lockCatalogs: manifest.lockCatalogs,
  };
  const pkg = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    private: true,
    type: "module",
    bin: { [manifest.command]: `bin/${manifest.command}.cjs` },
    keelDistribution,
  };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

/**
 * The same launcher as keel's own bin/keel.cjs (CommonJS, `--version` by one synchronous write, the same Node
 * flags in its shebang: see there why; test/e2e/distributions.test.ts checks the two first lines are equal).
 */
function launcher(command: string, launch: string): string {
  const file = isAbsolute(launch) ? JSON.stringify(launch) : `join(__dirname, ${JSON.stringify(launch)})`;
  return `#!/usr/bin/env -S node --max-semi-space-size=1
// The \`${command}\` command: the distribution in ../package.json, run by keel's kernel.
// Written by \`keel dist build\`; bin/keel.cjs in keel's own folder says why each line is as it is.
"use strict";
const { readFileSync, writeSync } = require("node:fs");
const { join } = require("node:path");

const args = process.argv.slice(2);
const packageJson = join(__dirname, "..", "package.json");
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const text = \`\${JSON.parse(readFileSync(packageJson, "utf8")).version}\\n\`;
  try {
    writeSync(1, text);
  } catch {
    process.stdout.write(text);
  }
} else {
  const line = Number(process.versions.node.split(".")[0]);
  if (line >= 22) require("node:v8").setFlagsFromString("--invocation-count-for-turbofan=21000");
  const { exitAfterFlush, launch } = require(${file});
  launch(args, { distributionFile: packageJson }).then(exitAfterFlush);
}
`;
}
