/**
 * A plugin's own dependencies, installed into its staged folder by Arborist (npm's installer) with every
 * lifecycle script off. The host maps `@keel/extensions-api` and `zod` to its own copies when it loads a
 * plugin, so they are left out of the install: the manifest is installed without them, then put back as written.
 * The dependency tree Arborist resolved is returned so keel.lock can reproduce it exactly.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Packages the host provides to every plugin; never installed per plugin. */
export const HOST_PACKAGES = ["@keel/extensions-api", "zod"];

const DEP_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"] as const;

/** npm's lockfile `packages` map (path → version, resolved, integrity, …), as Arborist wrote it. */
export type LockedPackages = Record<string, Record<string, unknown>>;

export interface DependencyOptions {
  registry?: string;
  cache: string;
  allowGit: boolean;
  allowRemote: boolean;
  /** A tree to install exactly (from keel.lock); otherwise the ranges are resolved anew. */
  locked?: LockedPackages;
}

type Manifest = Record<string, unknown> & Partial<Record<(typeof DEP_FIELDS)[number], Record<string, string>>>;

/** The dependencies the host does not provide; empty when there is nothing to install. */
export function ownDependencies(pkg: Manifest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of ["dependencies", "optionalDependencies"] as const)
    for (const [name, range] of Object.entries(pkg[field] ?? {})) if (!HOST_PACKAGES.includes(name)) out[name] = range;
  return out;
}

export async function installDependencies(dir: string, options: DependencyOptions): Promise<LockedPackages> {
  const file = join(dir, "package.json");
  const original = readFileSync(file, "utf8");
  const pkg = JSON.parse(original) as Manifest;
  if (Object.keys(ownDependencies(pkg)).length === 0) return {};
  const stripped: Manifest = { ...pkg };
  for (const field of DEP_FIELDS) {
    if (!pkg[field]) continue;
    stripped[field] = Object.fromEntries(Object.entries(pkg[field]!).filter(([n]) => !HOST_PACKAGES.includes(n)));
  }
  delete stripped.devDependencies;
  const lockFile = join(dir, "package-lock.json");
  const hadLock = existsSync(lockFile);
  try {
    writeFileSync(file, JSON.stringify(stripped));
    if (options.locked)
      writeFileSync(
        lockFile,
        JSON.stringify({
          name: pkg.name,
          version: pkg.version,
          lockfileVersion: 3,
          requires: true,
          packages: { "": { name: pkg.name, version: pkg.version, ...ownFields(stripped) }, ...options.locked },
        }),
      );
    else if (hadLock) rmSync(lockFile);
    const { default: Arborist } = await import("@npmcli/arborist");
    const arborist = new Arborist({
      path: dir,
      registry: options.registry,
      cache: options.cache,
      ignoreScripts: true,
      binLinks: false,
      legacyPeerDeps: true,
      omit: ["dev"],
      audit: false,
      fund: false,
      save: false,
      allowGit: options.allowGit ? "all" : "none",
      allowRemote: options.allowRemote ? "all" : "none",
    });
    await arborist.reify({ save: false });
  } finally {
    writeFileSync(file, original);
  }
  const hidden = join(dir, "node_modules", ".package-lock.json");
  let packages: LockedPackages = {};
  try {
    packages = (JSON.parse(readFileSync(hidden, "utf8")) as { packages?: LockedPackages }).packages ?? {};
  } catch {
    // No hidden lockfile: nothing was installed.
  }
  // npm's bookkeeping is not part of the plugin; keel.lock holds the tree instead.
  rmSync(hidden, { force: true });
  rmSync(lockFile, { force: true });
  return packages;
}

function ownFields(pkg: Manifest): Record<string, unknown> {
  return Object.fromEntries(DEP_FIELDS.filter((f) => pkg[f]).map((f) => [f, pkg[f]]));
}

/** Installed dependencies that declare an install script (or a native build) keel did not run. */
export function dependenciesWithScripts(dir: string): string[] {
  const out: string[] = [];
  const walk = (modules: string): void => {
    let names: string[];
    try {
      names = readdirSync(modules);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith(".")) continue;
      if (name.startsWith("@")) {
        walk(join(modules, name));
        continue;
      }
      const pkgDir = join(modules, name);
      try {
        const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as Manifest;
        if (installScripts(pkg, pkgDir).length > 0) out.push(`${pkg.name as string}@${pkg.version as string}`);
      } catch {
        // Not a package folder.
      }
      walk(join(pkgDir, "node_modules"));
    }
  };
  walk(join(dir, "node_modules"));
  return out;
}

/** The install-time scripts a package has: `preinstall`, `install`, `postinstall`, or a `binding.gyp` build. */
export function installScripts(pkg: Record<string, unknown>, dir: string): string[] {
  const scripts = (pkg.scripts ?? {}) as Record<string, string>;
  const out = ["preinstall", "install", "postinstall"].filter((s) => typeof scripts[s] === "string");
  if (out.length === 0 && existsSync(join(dir, "binding.gyp"))) out.push("install (node-gyp rebuild)");
  return out;
}
