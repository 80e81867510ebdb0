/**
 * npm packages as Node finds them (a `node_modules/<name>` in the folder or one of its parents), and the
 * closure of what a set of packages needs at run time, for copying a self-contained runtime.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";

/** The real folder of package `name` as Node resolves it from `fromDir`, or undefined. */
export function findPackage(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

export function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** One package to copy to `node_modules/<name>`. */
export interface RuntimePackage {
  name: string;
  version: string;
  dir: string;
}

/**
 * Whether `dir` sits in the node_modules of a package that is itself in a node_modules
 * (`…/node_modules/a/node_modules/b`): npm nested it there because another version of `b` is at the top.
 */
function nestedInPackage(dir: string): boolean {
  const at = dir.lastIndexOf(`${sep}node_modules${sep}`);
  return at > 0 && dir.slice(0, at).includes(`${sep}node_modules${sep}`);
}

/**
 * Every package the given folders' `dependencies` (and optional ones found) need, transitively, once each by
 * name. A dependency npm nested inside another package's folder travels with that package's folder. Two
 * versions of one name at the top would need nesting: reported as a problem rather than guessed.
 */
export function runtimeClosure(roots: string[], problems: string[]): RuntimePackage[] {
  const byName = new Map<string, RuntimePackage>();
  const visited = new Set<string>();
  const visit = (from: string) => {
    if (visited.has(from)) return;
    visited.add(from);
    const pkg = readPackage(from);
    const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
    for (const name of [...Object.keys(pkg.dependencies ?? {}), ...optional]) {
      const dir = findPackage(from, name);
      if (!dir) {
        if (!optional.has(name)) problems.push(`${pkg.name} needs ${name}, which is not installed beside it.`);
        continue;
      }
      // Nested in another installed package's node_modules: copied with that package (each runtime package is
      // copied whole), but what it needs may live higher up.
      if (nestedInPackage(dir)) {
        visit(dir);
        continue;
      }
      const seen = byName.get(name);
      const { version } = readPackage(dir);
      if (seen) {
        if (seen.dir !== dir && seen.version !== version)
          problems.push(`${name} is needed at ${seen.version} and at ${version}; a built distribution holds one.`);
        continue;
      }
      byName.set(name, { name, version, dir });
      visit(dir);
    }
  };
  for (const root of roots) visit(root);
  return [...byName.values()];
}
