/**
 * The specifiers every plugin gets from the host rather than from its own folder, whichever way it is loaded
 * (jiti for TypeScript, the CommonJS loader for a `.cjs` entry): the one catalog the loaders and the plugin
 * build (scripts/build-plugins.mjs keeps them external) derive from. Strings only, so the build can read it
 * without loading the modules.
 */

/** Answered with the host's own module objects, loaded with the host. */
export const HOST_MODULES = [
  "@keel/extensions-api",
  "@keel/extensions-api/catalog",
  "@keel/extensions-api/compaction",
  "@keel/extensions-api/lazy-schema",
  "@keel/extensions-api/mcp-config",
  "@keel/extensions-api/paths",
  "@keel/extensions-api/random-id",
  "@keel/extensions-api/render",
  "@keel/extensions-api/scripted",
  "@keel/extensions-api/sleep",
  "@keel/extensions-api/stream",
  "@keel/extensions-api/truncate",
  "@keel/extensions-api/user-settings",
  "zod",
  "zod/v4",
  // The installer (a library the marketplace plugin loads) writes the lock the host checks: one copy.
  "@keel/plugin-lock",
] as const;

export type HostModule = (typeof HOST_MODULES)[number];

/** A library the host holds one copy of, loaded when a plugin first asks for it (itself or a subpath). */
export const HOST_LIBRARY = "@keel/provider-kit";

/** Whether the host answers `specifier` itself. */
export function isHostSpecifier(specifier: string): boolean {
  return (
    (HOST_MODULES as readonly string[]).includes(specifier) ||
    specifier === HOST_LIBRARY ||
    specifier.startsWith(`${HOST_LIBRARY}/`)
  );
}
