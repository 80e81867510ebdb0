/**
 * A plugin catalog (a marketplace): a `marketplace.json` listing plugins by name, each with where to get it,
 * the versions it vouches for (with their sha512), what they may do, and notices (deprecated, blocked). keel
 * reads catalogs added with `keel market add`; `keel install <name>` resolves a bare name through them.
 * Claude Code's `marketplace.json` is read too, mapped onto this shape (see docs/marketplace.md).
 */
import { z } from "zod";
import { lazySchema } from "./lazy-schema.js";

export const CatalogVersionSchema = lazySchema(() =>
  z
    .object({
      version: z.string().min(1),
      /** Where this version is, when not the plugin's `source` at this version (a tarball URL, a git ref). */
      source: z.string().optional(),
      /** sha512 of the tarball (`sha512-…`); an install whose tarball differs is refused. */
      integrity: z
        .string()
        .regex(/^sha512-/, "an integrity is sha512-<base64>")
        .optional(),
      /**
       * When this version was published (ISO 8601): `marketplace.minReleaseAge` does not pick a version younger
       * than the setting unless the user names it exactly.
       */
      published: z.iso.datetime({ offset: true }).optional(),
      /** Why this version should not be used any more; installing it warns. */
      deprecated: z.string().optional(),
      /** Why this version must never run (known malicious, say): keel refuses to install or load it. */
      blocked: z.string().optional(),
    })
    .strict(),
);

export const CatalogPluginSchema = lazySchema(() =>
  z
    .object({
      name: z.string().min(1),
      description: z.string().optional(),
      /** A keel source: `npm:<package>`, `git:<url>`, an https tarball URL, or a path relative to the catalog file. */
      source: z.string().min(1),
      versions: z.array(CatalogVersionSchema).default([]),
      capabilities: z.array(z.string()).default([]),
      keywords: z.array(z.string()).default([]),
      deprecated: z.string().optional(),
      /**
       * A Claude Code entry's own manifest fields (`commands`, `agents`, `skills`, `hooks`, `mcpServers`, …): the
       * plugin's whole manifest when `strict` is false, else components added to its `.claude-plugin/plugin.json`.
       * The installer writes them into the installed folder, where the host's format adapter reads them.
       */
      manifest: z.record(z.string(), z.unknown()).optional(),
      /** Whether `manifest` replaces the plugin's own (Claude Code's `strict: false`). */
      strict: z.boolean().optional(),
    })
    .strict(),
);

export const CatalogSchema = lazySchema(() =>
  z
    .object({
      name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "a catalog name is lowercase letters, digits, . _ -"),
      owner: z.object({ name: z.string().min(1), email: z.string().optional(), url: z.string().optional() }),
      description: z.string().optional(),
      plugins: z.array(CatalogPluginSchema),
      /** Plugins listed under a new name: old name → new (Claude Code's `renames`); `install <old>` finds the new. */
      renames: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
);

export type CatalogVersion = z.output<typeof CatalogVersionSchema>;
export type CatalogPlugin = z.output<typeof CatalogPluginSchema>;
export type Catalog = z.output<typeof CatalogSchema>;
