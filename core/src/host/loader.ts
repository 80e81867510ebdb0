/**
 * Loading a plugin's entry. A `.cjs` entry is loaded by `cjs-entry.ts` (the V8 code cache, no transform); any
 * other (TypeScript, ESM) through jiti: TypeScript without a build step. Either way a plugin gets the host's
 * modules for the specifiers of `host-specifiers.ts` (jiti `virtualModules`), so it needs no install of its own
 * and `instanceof`, schemas and symbols are the host's, and `@keel/provider-kit` is the host's one copy, loaded
 * when a plugin first asks for it.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { PluginDefinition } from "@keel/extensions-api";
import { keelCacheDir } from "../cache-dir.js";
import { requireWithCodeCache } from "../code-cache.js";
import { trace } from "@keel/kernel";
import { hostLibrary, requireWithHostModules } from "./cjs-entry.js";
import { HOST_LIBRARY } from "./host-specifiers.js";
import { hostModules } from "./host-modules.js";

type Jiti = { import<T>(id: string, options?: { default?: boolean }): Promise<T> };
let jiti: Jiti | undefined;

function getJiti(): Jiti {
  if (jiti) return jiti;
  // Loaded on first use (a run whose plugins are all lazy or CommonJS never pays for jiti), and through require:
  // jiti is CommonJS, and importing it as ESM makes Node scan its 190 KB for export names first. Its 190 KB core
  // is compiled through the code cache and registered, so jiti's own entry finds it already loaded.
  const require = createRequire(import.meta.url);
  const entry = require.resolve("jiti");
  const core = requireWithCodeCache(join(dirname(entry), "..", "dist", "jiti.cjs"));
  const { createJiti } = require(entry) as typeof import("jiti");
  core.saveCache();
  jiti = createJiti(import.meta.url, {
    // A stable folder, so transforms are reused across runs and across temporary KEEL_HOMEs.
    fsCache: join(keelCacheDir(), "jiti"),
    moduleCache: true,
    interopDefault: true,
    virtualModules: withHostLibrary({ ...hostModules }, require),
  }) as unknown as Jiti;
  trace("jiti ready");
  return jiti;
}

/**
 * Adds each export of `@keel/provider-kit` (`name`, `name/sub`, …) to jiti's virtual modules as a getter: jiti
 * looks a virtual module up when it is imported, so the library loads on the first import, not with jiti.
 */
function withHostLibrary(modules: Record<string, unknown>, require: NodeJS.Require): Record<string, unknown> {
  const manifest = require.resolve(`${HOST_LIBRARY}/package.json`);
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports: Record<string, unknown> };
  for (const key of Object.keys(exports)) {
    if (key === "./package.json") continue;
    const specifier = key === "." ? HOST_LIBRARY : `${HOST_LIBRARY}/${key.slice(2)}`;
    Object.defineProperty(modules, specifier, { enumerable: true, get: () => hostLibrary(specifier) });
  }
  return modules;
}

/** Imports the entry and checks it is a plugin definition. Throws an error that says what is wrong. */
export async function loadEntry(dir: string, entry: string): Promise<PluginDefinition<any>> {
  const file = resolve(dir, entry);
  let mod: unknown;
  try {
    mod = file.endsWith(".cjs") ? requireWithHostModules(file) : await getJiti().import(file, { default: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ERR_MODULE_NOT_FOUND" || /Cannot find module/.test(String(error))) {
      throw new Error(`its entry ${file} could not be loaded: ${(error as Error).message}`);
    }
    throw new Error(`its entry ${file} failed to load: ${(error as Error).message}`);
  }
  const definition = (mod as { default?: unknown })?.default ?? mod;
  if (
    typeof definition !== "object" ||
    definition === null ||
    typeof (definition as PluginDefinition).activate !== "function"
  ) {
    throw new Error(`its entry ${file} must export default definePlugin({ activate(api) { ... } })`);
  }
  return definition as PluginDefinition<any>;
}
