/**
 * keel.lock: what was installed in one scope (the user's `$KEEL_HOME`, a project's `.keel/`), so the host can
 * check at every load that the plugin it is about to run is the one that was reviewed, and a team can commit
 * the project's lock to get the same plugins. The installer (`@keel/installer`) writes it; the host only reads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";

export const LOCK_FILE = "keel.lock";
export const LOCK_VERSION = 1;

/** One installed plugin. */
export const LockEntrySchema = lazySchema(() =>
  z.object({
    /**
     * What the user asked for, normalised: `npm:@acme/x@^1.2`, `git+file:///…#v1`, `file:/abs/x.tgz`,
     * `link:/dir`.
     */
    source: z.string(),
    /** The version installed. */
    version: z.string(),
    /** Where it came from exactly: the tarball URL or the git commit URL pacote resolved. */
    resolved: z.string().optional(),
    /** The git commit, for git sources. */
    commit: z.string().optional(),
    /** sha512 of the fetched tarball (npm's `integrity`), for sources that have one. */
    integrity: z.string().optional(),
    /** sha512 of the installed folder, dependencies included (`tree-hash.ts`); absent for a linked folder. */
    tree: z.string().optional(),
    /** A local folder linked for development: not copied, so not verified. */
    linked: z.boolean().optional(),
    /** The catalog the name was resolved through, if any. */
    catalog: z.string().optional(),
    /** The capabilities the manifest declared when the user agreed; an update asks again for one none covers. */
    capabilities: z.array(z.string()),
    /** The hooks it taps, as agreed; an update that adds one asks again. */
    hooks: z.array(z.string()).default([]),
    /** The plugin's dependency tree as npm's lockfile `packages` map, so the lock reproduces it exactly. */
    packages: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    /**
     * A Claude Code catalog entry's own manifest fields, written into the folder at install (`strict: false`
     * entries, and components an entry adds), so reproducing the lock writes them again.
     */
    entryManifest: z.object({ fields: z.record(z.string(), z.unknown()), strict: z.boolean() }).optional(),
    /** When it was installed or updated (ISO 8601). */
    installedAt: z.string(),
  }),
);
export type LockEntry = z.output<typeof LockEntrySchema>;

export const LockSchema = lazySchema(() =>
  z.object({
    lockfileVersion: z.literal(LOCK_VERSION),
    plugins: z.record(z.string(), LockEntrySchema),
  }),
);
export type Lock = z.output<typeof LockSchema>;

export function emptyLock(): Lock {
  return { lockfileVersion: LOCK_VERSION, plugins: {} };
}

/** The lock of the scope whose root is `scopeRoot`; an empty one when there is none. Throws when unreadable. */
export function readLock(scopeRoot: string): Lock {
  const file = join(scopeRoot, LOCK_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyLock();
    throw error;
  }
  const parsed = LockSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
    throw new Error(`${file} is not a keel.lock this keel can read (${issues})`);
  }
  return parsed.data;
}

/**
 * Versions a catalog marked blocked, kept by the installer beside the catalogs (`$KEEL_HOME/catalogs/blocked.json`)
 * so the host can refuse them at load without reading every catalog: `name@version` → why, and which catalog.
 */
export const BlockedIndexSchema = lazySchema(() =>
  z.record(z.string(), z.object({ catalog: z.string(), reason: z.string() })),
);
export type BlockedIndex = z.output<typeof BlockedIndexSchema>;

export function blockedIndexFile(keelHome: string): string {
  return join(keelHome, "catalogs", "blocked.json");
}
