/**
 * Loading a plugin's CommonJS entry (`keel.entry` naming a `.cjs` file) without jiti: through the V8 code cache
 * (`code-cache.ts`), with a `require` that answers the host's specifiers (`host-specifiers.ts`) with the host's
 * module objects, loads each relative `.cjs` file (a bundle's chunks) the same way, and resolves everything else
 * from the plugin's own folder as Node does (its `node_modules`). The host's copy of `@keel/provider-kit` is
 * loaded this way too.
 *
 * A file that contains `import(` is compiled by Node's own CommonJS loader instead, without the code cache: on
 * Node 20 a `vm.Script` can only resolve a dynamic import through `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`,
 * which prints an ExperimentalWarning and stops working once the script comes from a code cache
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). The plugin build turns a bundle's dynamic imports into `require`s, so
 * keel's own bundles always take the cached path; a false match (the text in a string) only costs the cache.
 */
import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname } from "node:path";
import { requireWithCodeCache, type CachedModule } from "../code-cache.js";
import { HOST_LIBRARY } from "./host-specifiers.js";
import { hostLibraryFile, hostModules } from "./host-modules.js";

const DYNAMIC_IMPORT = /\bimport\s*\(/;
type NodeModule = Module & { filename: string; paths: string[]; require(id: string): unknown };
const moduleInternals = Module as unknown as {
  _cache: Record<string, NodeModule | undefined>;
  _nodeModulePaths(dir: string): string[];
};

/** Caches written when the process exits, once the code in them has run. */
const unsaved: CachedModule[] = [];

/** The exports of a CommonJS `file`, loaded once per process with the host's modules. */
export function requireWithHostModules(file: string): unknown {
  const known = moduleInternals._cache[file];
  if (known) return known.exports;
  const source = readFileSync(file, "utf8");
  if (DYNAMIC_IMPORT.test(source)) return compileWithNode(file, source);
  const loaded = requireWithCodeCache(file, { source, require: hostRequire(file) });
  if (unsaved.push(loaded) === 1) process.once("exit", () => unsaved.splice(0).forEach((m) => m.saveCache()));
  return loaded.exports;
}

/** The host's one copy of `@keel/provider-kit` (or a subpath of it), loaded on first use. */
export function hostLibrary(specifier: string): unknown {
  return requireWithHostModules(hostLibraryFile(specifier));
}

/** What `require(id)` gives code in `file`, or undefined when Node's own resolution from `file` should answer. */
function hostAnswer(file: string, id: string): { value: unknown } | undefined {
  if (Object.hasOwn(hostModules, id)) return { value: hostModules[id as keyof typeof hostModules] };
  if (id === HOST_LIBRARY || id.startsWith(`${HOST_LIBRARY}/`)) return { value: hostLibrary(id) };
  if (id.startsWith("./") || id.startsWith("../")) {
    const target = createRequire(file).resolve(id);
    if (target.endsWith(".cjs")) return { value: requireWithHostModules(target) };
  }
  return undefined;
}

function hostRequire(file: string): NodeJS.Require {
  const own = createRequire(file);
  const require = ((id: string) => (hostAnswer(file, id) ?? { value: own(id) }).value) as NodeJS.Require;
  return Object.assign(require, { resolve: own.resolve, cache: own.cache, main: own.main, extensions: own.extensions });
}

/** Node's own CommonJS compile (dynamic imports work), with the same `require` answers. */
function compileWithNode(file: string, source: string): unknown {
  const module = new Module(file) as NodeModule & { _compile(source: string, file: string): void };
  module.filename = file;
  module.paths = moduleInternals._nodeModulePaths(dirname(file));
  const nodeRequire = module.require.bind(module);
  module.require = (id: string) => (hostAnswer(file, id) ?? { value: nodeRequire(id) }).value;
  moduleInternals._cache[file] = module;
  try {
    module._compile(source, file);
  } catch (error) {
    delete moduleInternals._cache[file];
    throw error;
  }
  module.loaded = true;
  return module.exports;
}
