/**
 * The module objects behind `host-specifiers.ts`: `@keel/extensions-api` (and each helper subpath), `zod` and
 * `@keel/plugin-lock` are the host's own, so `instanceof`, schemas and symbols are the host's and a plugin
 * needs no install to run. `@keel/provider-kit` (and its subpaths) is the library's compiled CommonJS build
 * (`libs/provider-kit/dist`, what its package's `require` condition names), loaded once for every plugin on
 * first use — a run without an HTTP provider never pays for it — and given these same modules, so a TypeScript
 * plugin (through jiti) and a `.cjs` plugin share one copy (`ProviderError` is one class).
 */
import { readFileSync, realpathSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as extensionsApi from "@keel/extensions-api";
import * as catalog from "@keel/extensions-api/catalog";
import * as compaction from "@keel/extensions-api/compaction";
import * as lazySchema from "@keel/extensions-api/lazy-schema";
import * as mcpConfig from "@keel/extensions-api/mcp-config";
import * as paths from "@keel/extensions-api/paths";
import * as randomId from "@keel/extensions-api/random-id";
import * as render from "@keel/extensions-api/render";
import * as scripted from "@keel/extensions-api/scripted";
import * as sleep from "@keel/extensions-api/sleep";
import * as stream from "@keel/extensions-api/stream";
import * as truncate from "@keel/extensions-api/truncate";
import * as userSettings from "@keel/extensions-api/user-settings";
import * as zod from "zod";
import * as pluginLock from "@keel/plugin-lock";
import { HOST_LIBRARY, type HostModule } from "./host-specifiers.js";

const moduleInternals = Module as unknown as { _nodeModulePaths(dir: string): string[] };

export const hostModules: Readonly<Record<HostModule, unknown>> = {
  "@keel/extensions-api": extensionsApi,
  "@keel/extensions-api/catalog": catalog,
  "@keel/extensions-api/compaction": compaction,
  "@keel/extensions-api/lazy-schema": lazySchema,
  "@keel/extensions-api/mcp-config": mcpConfig,
  "@keel/extensions-api/paths": paths,
  "@keel/extensions-api/random-id": randomId,
  "@keel/extensions-api/render": render,
  "@keel/extensions-api/scripted": scripted,
  "@keel/extensions-api/sleep": sleep,
  "@keel/extensions-api/stream": stream,
  "@keel/extensions-api/truncate": truncate,
  "@keel/extensions-api/user-settings": userSettings,
  zod,
  "zod/v4": zod,
  "@keel/plugin-lock": pluginLock,
};

/** The file the host's copy of `specifier` (`@keel/provider-kit` or one of its subpaths) is compiled to. */
export function hostLibraryFile(specifier: string): string {
  const file = requireTarget(specifier) ?? createRequire(import.meta.url).resolve(specifier);
  if (!file.endsWith(".cjs"))
    throw new Error(`${HOST_LIBRARY} is not built (${specifier} resolves to ${file}): run \`npm run build\``);
  return file;
}

/**
 * The `require` target the library's package.json names for `specifier`, found where Node's search of
 * node_modules folders finds the package, as the real path `require.resolve` gives; undefined for any other shape,
 * which Node's resolver then answers. Node resolves package `exports` with its ES module resolver, loaded and
 * compiled on first use (four of Node's modules), for what is, on a run's way, this one package. bin/keel.cjs finds
 * @keel/core's launcher the same way, with its own few lines: it runs before any of keel is loaded.
 */
function requireTarget(specifier: string): string | undefined {
  const subpath = `.${specifier.slice(HOST_LIBRARY.length)}`;
  for (const folder of moduleInternals._nodeModulePaths(dirname(fileURLToPath(import.meta.url)))) {
    const dir = join(folder, HOST_LIBRARY);
    let manifest: { exports?: Record<string, { require?: unknown } | undefined> };
    try {
      manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    const target = manifest.exports?.[subpath]?.require;
    return typeof target === "string" && target.startsWith("./") ? realpathSync(join(dir, target)) : undefined;
  }
  return undefined;
}
