/**
 * Loading a plugin's entry with jiti: TypeScript without a build step. Every plugin resolves
 * `@keel/extensions-api` (and its helper subpaths) and `zod` to the host's own module objects (jiti `virtualModules`), so a plugin needs
 * no install of its own and `instanceof`, schemas and symbols are the host's.
 */
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import * as extensionsApi from "@keel/extensions-api";
import * as compaction from "@keel/extensions-api/compaction";
import * as paths from "@keel/extensions-api/paths";
import * as scripted from "@keel/extensions-api/scripted";
import * as sleep from "@keel/extensions-api/sleep";
import * as stream from "@keel/extensions-api/stream";
import * as truncate from "@keel/extensions-api/truncate";
import * as zod from "zod";
import type { PluginDefinition } from "@keel/extensions-api";
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
    virtualModules: {
      "@keel/extensions-api": extensionsApi,
      "@keel/extensions-api/compaction": compaction,
      "@keel/extensions-api/paths": paths,
      "@keel/extensions-api/scripted": scripted,
      "@keel/extensions-api/sleep": sleep,
      "@keel/extensions-api/stream": stream,
      "@keel/extensions-api/truncate": truncate,
      zod,
      "zod/v4": zod,
    },
  }) as unknown as Jiti;
  trace("jiti ready");
  return jiti;
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
  if (typeof definition !== "object" || definition === null || typeof (definition as PluginDefinition).activate !== "function") {
    throw new Error(`its entry ${file} must export default definePlugin({ activate(api) { ... } })`);
  }
  return definition as PluginDefinition<any>;
}
