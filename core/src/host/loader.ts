/**
 * Loading a plugin's entry with jiti: TypeScript without a build step. Every plugin resolves
 * `@keel/extensions-api` (and its helper subpaths) and `zod` to the host's own module objects (jiti
 * `virtualModules`), so a plugin needs no install of its own and `instanceof`, schemas and symbols are the
 * host's. `@keel/provider-kit` (and its subpaths) resolves to the host's copy of the library's files (jiti
 * `alias`): loaded, once for all plugins, only when a plugin imports it — a run without an HTTP provider never
 * pays for it. `@keel/core/installed` (the lock format and tree hash) is the host's own module too, so the
 * installer library writes exactly what the host verifies, without loading a second copy of the contract.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import * as extensionsApi from "@keel/extensions-api";
import * as catalog from "@keel/extensions-api/catalog";
import * as compaction from "@keel/extensions-api/compaction";
import * as paths from "@keel/extensions-api/paths";
import * as render from "@keel/extensions-api/render";
import * as scripted from "@keel/extensions-api/scripted";
import * as sleep from "@keel/extensions-api/sleep";
import * as stream from "@keel/extensions-api/stream";
import * as truncate from "@keel/extensions-api/truncate";
import * as userSettings from "@keel/extensions-api/user-settings";
import * as zod from "zod";
import type { PluginDefinition } from "@keel/extensions-api";
import * as installed from "./installed/index.js";
import { keelCacheDir } from "../cache-dir.js";
import { requireWithCodeCache } from "../code-cache.js";
import { trace } from "../trace.js";

type Jiti = { import<T>(id: string, options?: { default?: boolean }): Promise<T> };
let jiti: Jiti | undefined;

function getJiti(): Jiti {
  if (jiti) return jiti;
  // Loaded on first use (a run whose plugins are all lazy never pays for jiti), and through require: jiti is
  // CommonJS, and importing it as ESM makes Node scan its 190 KB for export names first. Its 190 KB core is
  // compiled through the code cache and registered, so jiti's own entry finds it already loaded.
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
    alias: libraryAliases(require, "@keel/provider-kit"),
    virtualModules: {
      "@keel/extensions-api": extensionsApi,
      "@keel/extensions-api/catalog": catalog,
      "@keel/extensions-api/compaction": compaction,
      "@keel/extensions-api/paths": paths,
      "@keel/extensions-api/render": render,
      "@keel/extensions-api/scripted": scripted,
      "@keel/extensions-api/sleep": sleep,
      "@keel/extensions-api/stream": stream,
      "@keel/extensions-api/truncate": truncate,
      "@keel/extensions-api/user-settings": userSettings,
      zod,
      "zod/v4": zod,
      // The installer (a library the marketplace plugin loads) writes the lock the host checks: one copy.
      "@keel/core/installed": installed,
    },
  }) as unknown as Jiti;
  trace("jiti ready");
  return jiti;
}

/** The host's copy of a library (`@keel/provider-kit`), loaded like a plugin's import of it: once, on demand. */
export function loadHostLibrary<T>(name: string): Promise<T> {
  return getJiti().import<T>(name);
}

/** Each export of the host's copy of `name` (`name`, `name/sub`, …) → the file its package.json names. */
function libraryAliases(require: NodeJS.Require, name: string): Record<string, string> {
  const manifest = require.resolve(`${name}/package.json`);
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports: Record<string, string> };
  const aliases: Record<string, string> = {};
  for (const [key, file] of Object.entries(exports)) {
    if (key !== "./package.json")
      aliases[key === "." ? name : `${name}/${key.slice(2)}`] = resolve(dirname(manifest), file);
  }
  return aliases;
}

/** Imports the entry and checks it is a plugin definition. Throws an error that says what is wrong. */
export async function loadEntry(dir: string, entry: string): Promise<PluginDefinition<any>> {
  const file = resolve(dir, entry);
  const loader = getJiti();
  let mod: unknown;
  try {
    mod = await loader.import(file, { default: true });
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
