/**
 * Catalogs the user added (`keel market add`), kept as parsed copies under `$KEEL_HOME/catalogs/<name>.json`
 * with where each came from, so `search` and bare-name installs work offline and `market update` fetches them
 * again. After every change the versions any catalog blocked are written to `catalogs/blocked.json`, which the
 * host reads at load.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, posix, resolve } from "node:path";
import { blockedIndexFile, type BlockedIndex } from "@keel/plugin-lock";
import type { Catalog } from "@keel/extensions-api/catalog";
import { fetchCatalog, normalOrigin, type CatalogFetchOptions } from "./catalog-fetch.ts";
import { keyAtAdd, keyAtUpdate, type PinnedKey } from "./catalog-signature.ts";
import { RefusedError } from "./check.ts";

export interface CatalogRecord {
  /** Where it was added from: a marketplace.json's absolute path, an https URL, or `git:<url>`. */
  origin: string;
  updatedAt: string;
  catalog: Catalog;
  /** The key that signs it, pinned at `market add`; absent for an unsigned catalog. */
  key?: PinnedKey;
}

const catalogsDir = (keelHome: string) => join(keelHome, "catalogs");
const recordFile = (keelHome: string, name: string) => join(catalogsDir(keelHome), `${name}.json`);

export function listCatalogs(keelHome: string): CatalogRecord[] {
  let names: string[];
  try {
    names = readdirSync(catalogsDir(keelHome));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json") && n !== "blocked.json")
    .sort()
    .map((n) => JSON.parse(readFileSync(join(catalogsDir(keelHome), n), "utf8")) as CatalogRecord);
}

function save(keelHome: string, record: CatalogRecord): void {
  mkdirSync(catalogsDir(keelHome), { recursive: true });
  const file = recordFile(keelHome, record.catalog.name);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * Reads a catalog from `origin` (a path, a git URL, an https URL) without adding it, under `name` when given
 * (the name its reader trusts it by): what `dist build` resolves a manifest's `catalog:` plugins through.
 */
export async function readCatalog(origin: string, cwd: string, name?: string): Promise<CatalogRecord> {
  const where = normalOrigin(origin, cwd);
  const fetched = await fetchCatalog(where);
  const key = keyAtAdd(fetched, where);
  const catalog = { ...fetched.catalog, name: name ?? fetched.catalog.name };
  return { origin: where, updatedAt: new Date().toISOString(), catalog, ...(key ? { key } : {}) };
}

/** Keeps `record` among the catalogs under `home` (and their blocked versions), as `market add` does. */
export function keepCatalog(home: string, record: CatalogRecord): void {
  save(home, record);
  writeBlocked(home);
}

export interface AddCatalogOptions extends CatalogFetchOptions {
  cwd: string;
  /** The managed settings' `plugins.allowedCatalogs`: when set, only these origins or catalog names may be added. */
  allowed?: readonly string[];
  /** The managed settings' `plugins.blockedCatalogs`: these origins or catalog names are never added. */
  blocked?: readonly string[];
  /** Where the managed settings are, for the refusal. */
  managedFile?: string;
  /** The public key the user gave (`--key`): the catalog must be signed by it. */
  key?: string;
  /** The command's name, for messages. */
  command?: string;
}

export async function addCatalog(keelHome: string, origin: string, options: AddCatalogOptions): Promise<CatalogRecord> {
  const where = normalOrigin(origin, options.cwd);
  const fetched = await fetchCatalog(where, options);
  const { catalog } = fetched;
  const named = { name: catalog.name, origin: where };
  const managed = `the managed settings${options.managedFile ? ` (${options.managedFile})` : ""}`;
  if (options.blocked && catalogListed(options.blocked, named, options.cwd))
    throw new RefusedError(
      `the catalog ${where} is blocked by plugins.blockedCatalogs of ${managed}; it was not added`,
    );
  if (options.allowed && !catalogListed(options.allowed, named, options.cwd))
    throw new RefusedError(
      `the catalog ${where} is not in plugins.allowedCatalogs of ${managed}; ask your administrator to add it`,
    );
  const existing = listCatalogs(keelHome).find((r) => r.catalog.name === catalog.name);
  if (existing && existing.origin !== where)
    throw new RefusedError(
      `a catalog named "${catalog.name}" is already added from ${existing.origin}; remove it first ` +
        `(\`${options.command ?? "keel"} market remove ${catalog.name}\`)`,
    );
  // Adding again what is added is an update: it must not replace a pinned key behind the user's back.
  const key = existing
    ? keyAtUpdate(fetched, existing.key, { name: catalog.name, command: options.command ?? "keel" }, options.key).key
    : keyAtAdd(fetched, where, options.key);
  const record = { origin: where, updatedAt: new Date().toISOString(), catalog, ...(key ? { key } : {}) };
  keepCatalog(keelHome, record);
  return record;
}

/** Whether `list` (catalog names or origins, as managed settings give them) names the catalog. */
export function catalogListed(list: readonly string[], catalog: { name: string; origin: string }, cwd: string) {
  return list.some((entry) => {
    if (entry === catalog.name || entry === catalog.origin) return true;
    try {
      return normalOrigin(entry, cwd) === catalog.origin;
    } catch {
      return false;
    }
  });
}

export interface UpdateCatalogOptions extends CatalogFetchOptions {
  /** The command's name, for messages. */
  command: string;
  /** The id or public key of a new signing key the user accepts (`--accept-key`), for the one catalog named. */
  acceptKey?: string;
}

/** One catalog's update: the record now kept, or why it was refused (the old copy stays). */
export interface CatalogUpdate {
  name: string;
  record?: CatalogRecord;
  error?: string;
  notice?: string;
}

/**
 * Fetches catalogs again from where they were added (all, or the one named) and checks each against its
 * pinned key; one refused keeps its old copy and does not stop the others.
 */
export async function updateCatalogs(
  keelHome: string,
  name: string | undefined,
  options: UpdateCatalogOptions,
): Promise<CatalogUpdate[]> {
  const records = listCatalogs(keelHome).filter((r) => !name || r.catalog.name === name);
  if (name && records.length === 0) throw new RefusedError(`no catalog named "${name}" is added`);
  const out: CatalogUpdate[] = [];
  for (const record of records) {
    const who = { name: record.catalog.name, command: options.command };
    try {
      const fetched = await fetchCatalog(record.origin, options);
      const { key, notice } = keyAtUpdate(fetched, record.key, who, name ? options.acceptKey : undefined);
      const updated: CatalogRecord = {
        origin: record.origin,
        updatedAt: new Date().toISOString(),
        catalog: { ...fetched.catalog, name: record.catalog.name },
        ...(key ? { key } : {}),
      };
      save(keelHome, updated);
      out.push({ name: who.name, record: updated, notice });
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      out.push({ name: who.name, error: error.message });
    }
  }
  writeBlocked(keelHome);
  return out;
}

export function removeCatalog(keelHome: string, name: string): void {
  const file = recordFile(keelHome, name);
  if (!statSync(file, { throwIfNoEntry: false })) throw new RefusedError(`no catalog named "${name}" is added`);
  rmSync(file);
  writeBlocked(keelHome);
}

/** Every blocked version of every added catalog, by `name@version`: what the host refuses at load. */
export function blockedVersions(records: CatalogRecord[]): BlockedIndex {
  const out: BlockedIndex = {};
  for (const { catalog } of records)
    for (const plugin of catalog.plugins)
      for (const v of plugin.versions)
        if (v.blocked)
          out[`${packageNameOf(plugin.source) ?? plugin.name}@${v.version}`] = {
            catalog: catalog.name,
            reason: v.blocked,
          };
  return out;
}

/** The npm package name of an `npm:` source; the plugin's package name is what the lock is keyed by. */
function packageNameOf(source: string): string | undefined {
  const m = /^npm:((?:@[^/@]+\/)?[^@]+)/.exec(source);
  return m?.[1];
}

function writeBlocked(keelHome: string): void {
  const file = blockedIndexFile(keelHome);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(blockedVersions(listCatalogs(keelHome))));
  renameSync(`${file}.tmp`, file);
}

/**
 * A catalog plugin's source with a relative path resolved against where the catalog is: for a catalog on disk,
 * its folder (the folder holding `.claude-plugin/` or `.keel-plugin/` when the file is in one, as Claude Code
 * reads it); for a git catalog, that folder of its repository, at the ref it was added from (a git source,
 * fetched only with the git opt-in); for an https catalog, a URL beside the catalog's (a remote tarball,
 * fetched only with the remote opt-in). Other sources stay as they are.
 */
export function catalogSource(source: string, record: CatalogRecord): string {
  if (/^(npm:|git:|git\+|https?:\/\/)/.test(source)) return source;
  const { origin } = record;
  if (origin.startsWith("git:")) {
    if (isAbsolute(source))
      throw new RefusedError(
        `the catalog "${record.catalog.name}" gives the absolute path "${source}"; a git catalog's sources are ` +
          "paths inside its repository",
      );
    const [url, ref] = origin.slice(4).split("#", 2) as [string, string | undefined];
    const sub = posix.normalize(source.replace(/^\.\//, "")).replace(/\/$/, "");
    if (sub.startsWith("..") || sub === ".")
      throw new RefusedError(
        `the catalog "${record.catalog.name}" gives "${source}", which is not inside its repository`,
      );
    return `git:${url}#${ref ? `${ref}::` : ""}path:${sub}`;
  }
  if (/^https?:/.test(origin)) return new URL(source, origin).href;
  const folder = dirname(origin);
  const root = /^\.(claude|keel)-plugin$/.test(basename(folder)) ? dirname(folder) : folder;
  return isAbsolute(source) ? source : resolve(root, source);
}
