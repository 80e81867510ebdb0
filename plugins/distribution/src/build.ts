/**
 * Building a distribution: a folder with a package.json whose `keelDistribution` is the manifest resolved
 * (plugin folders and settings), the plugins, keel's runtime and what they all need, and `bin/<command>.js`,
 * which runs the agent under its own name with its own home. `link` builds the same folder pointing at the
 * plugins and the runtime where they are installed, for `dist run`.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  DistributionManifestSchema,
  distributionSettings,
  type CliContext,
  type DistributionField,
  type DistributionManifest,
} from "@keel/extensions-api";
import { findPackage, runtimeClosure } from "./packages.ts";
import { resolvePlugin, type ResolvedPlugin } from "./resolve.ts";

export type BuildResult = { ok: true; out: string; bin: string; command: string } | { ok: false; problems: string[] };

export interface BuildOptions {
  context: Pick<CliContext, "distributionFile">;
  link: boolean;
}

export async function buildDistribution(file: string, out: string, options: BuildOptions): Promise<BuildResult> {
  const manifest = readManifest(file);
  if (typeof manifest === "string") return { ok: false, problems: [manifest] };
  if (existsSync(out)) return { ok: false, problems: [`${out} already exists; name a new folder with --out.`] };
  const { distributionFile } = options.context;
  const problems: string[] = [];
  const plugins: ResolvedPlugin[] = [];
  for (const plugin of manifest.plugins) {
    const resolved = resolvePlugin(plugin, file, distributionFile);
    if (typeof resolved === "string") problems.push(resolved);
    else plugins.push(resolved);
  }
  const core = findPackage(dirname(distributionFile), "@keel/core");
  if (!core) problems.push(`keel's runtime (@keel/core) is not installed beside ${distributionFile}.`);
  if (problems.length > 0 || !core) return { ok: false, problems };

  let pluginDirs: string[];
  let launch: string;
  if (options.link) {
    pluginDirs = plugins.map((p) => p.dir);
    launch = pathToFileURL(join(core, "dist", "launch.js")).href;
  } else {
    const runtime = runtimeClosure([core, ...plugins.map((p) => p.dir)], problems);
    if (problems.length > 0) return { ok: false, problems };
    pluginDirs = plugins.map((p) => copyPlugin(p, out));
    for (const pkg of [{ dir: core, name: "@keel/core" }, ...runtime])
      copyFolder(pkg.dir, join(out, "node_modules", pkg.name));
    launch = "@keel/core/launch";
  }
  mkdirSync(join(out, "bin"), { recursive: true });
  writePackage(out, manifest, pluginDirs);
  const bin = join(out, "bin", `${manifest.command}.js`);
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

/** A plugin's files under `plugins/`, named after its package; its own dependencies go to the runtime. */
function copyPlugin({ plugin, dir }: ResolvedPlugin, out: string): string {
  const target = join(out, "plugins", plugin.name.replace(/^@/, "").replace("/", "__"));
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
  };
  const pkg = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    private: true,
    type: "module",
    bin: { [manifest.command]: `bin/${manifest.command}.js` },
    keelDistribution,
  };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

function launcher(command: string, launch: string): string {
  return `#!/usr/bin/env node
// The \`${command}\` command: the distribution in ../package.json, run by keel's kernel. Written by \`keel dist build\`.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(\`\${JSON.parse(readFileSync(packageJson, "utf8")).version}\\n\`);
} else {
  const { exitAfterFlush, launch } = await import(${JSON.stringify(launch)});
  exitAfterFlush(await launch(args, { distributionFile: packageJson }));
}
`;
}
