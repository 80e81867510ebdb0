/**
 * The module objects behind `host-specifiers.ts`: `@keel/extensions-api` (and each helper subpath), `zod` and
 * `@keel/core/installed` are the host's own, so `instanceof`, schemas and symbols are the host's and a plugin
 * needs no install to run. `@keel/provider-kit` (and its subpaths) is the library's compiled CommonJS build
 * (`libs/provider-kit/dist`, what its package's `require` condition names), loaded once for every plugin on
 * first use — a run without an HTTP provider never pays for it — and given these same modules, so a TypeScript
 * plugin (through jiti) and a `.cjs` plugin share one copy (`ProviderError` is one class).
 */
import { createRequire } from "node:module";
import * as extensionsApi from "@keel/extensions-api";
import * as catalog from "@keel/extensions-api/catalog";
import * as compaction from "@keel/extensions-api/compaction";
import * as paths from "@keel/extensions-api/paths";
import * as randomId from "@keel/extensions-api/random-id";
import * as render from "@keel/extensions-api/render";
import * as scripted from "@keel/extensions-api/scripted";
import * as sleep from "@keel/extensions-api/sleep";
import * as stream from "@keel/extensions-api/stream";
import * as truncate from "@keel/extensions-api/truncate";
import * as userSettings from "@keel/extensions-api/user-settings";
import * as zod from "zod";
import * as installed from "./installed/index.js";
import { HOST_LIBRARY, type HostModule } from "./host-specifiers.js";

export const hostModules: Readonly<Record<HostModule, unknown>> = {
  "@keel/extensions-api": extensionsApi,
  "@keel/extensions-api/catalog": catalog,
  "@keel/extensions-api/compaction": compaction,
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
  "@keel/core/installed": installed,
};

/** The file the host's copy of `specifier` (`@keel/provider-kit` or one of its subpaths) is compiled to. */
export function hostLibraryFile(specifier: string): string {
  const file = createRequire(import.meta.url).resolve(specifier);
  if (!file.endsWith(".cjs"))
    throw new Error(`${HOST_LIBRARY} is not built (${specifier} resolves to ${file}): run \`npm run build\``);
  return file;
}
