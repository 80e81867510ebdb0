/**
 * Catalogs the user added (`keel market add`), kept as parsed copies under `$KEEL_HOME/catalogs/<name>.json`
 * with where each came from, so `search` and bare-name installs work offline and `market update` fetches them
 * again. After every change the versions any catalog blocked are written to `catalogs/blocked.json`, which the
 * host reads at load.
 */
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, posix, resolve } from "node:path";
import { blockedIndexFile, type BlockedIndex } from "@keel/plugin-lock";
import { CatalogSchema, type Catalog } from "@keel/extensions-api/catalog";
import { RefusedError } from "./check.ts";
import { fromClaudeCode, isClaudeCodeCatalog } from "./claude-code.ts";

export interface CatalogRecord {
  /** Where it was added from: a marketplace.json's absolute path, an https URL, or `git:<url>`. */
  origin: string;
  updatedAt: string;
  catalog: Catalog;
}

const catalogsDir = (keelHome: string) => join(keelHome, "catalogs");
const recordFile = (keelHome: string, name: string) => join(catalogsDir(keelHome), `${name}.json`);
const FILE_NAMES = ["marketplace.json", ".keel-plugin/marketplace.json", ".claude-plugin/marketplace.json"];

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

/** Parses a catalog's JSON text, in keel's format or Claude Code's; throws naming `where` and the keys at fault. */
export function parseCatalog(text: string, where: string): Catalog {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RefusedError(`${where} is not JSON (${(error as Error).message})`);
  }
  const input = isClaudeCodeCatalog(raw) ? fromClaudeCode(raw as Record<string, unknown>) : raw;
  const parsed = CatalogSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
    throw new RefusedError(`${where} is not a valid catalog: ${issues}`);
  }
  return parsed.data;
}

/** The origin as stored: absolute path of the JSON file, the URL, or `git:<url>`. */
function normalOrigin(origin: string, cwd: string): string {
  if (/^https?:\/\//.test(origin) && !/\.git(#.*)?$/.test(origin)) return origin;
  if (/^(git:|git\+)/.test(origin)) return `git:${origin.replace(/^git[:+]/, "")}`;
  if (/\.git(#.*)?$/.test(origin)) return `git:${origin}`;
  const path = resolve(cwd, origin);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    const file = FILE_NAMES.map((f) => join(path, f)).find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
    if (!file) throw new RefusedError(`${path} holds no ${FILE_NAMES.join(" or ")}`);
    return file;
  }
  return path;
}

async function fetchCatalog(origin: string): Promise<Catalog> {
  if (origin.startsWith("git:")) {
    const [url, ref] = origin.slice(4).split("#", 2) as [string, string | undefined];
    const dir = mkdtempSync(join(tmpdir(), "keel-catalog-"));
    try {
      const args = ["clone", "--quiet", "--depth", "1", ...(ref ? ["--branch", ref] : []), url, dir];
      // Hooks and filters of the cloned repository must not run: no checkout hooks, no configured filters.
      execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { stdio: ["ignore", "ignore", "pipe"] });
      const file = FILE_NAMES.map((f) => join(dir, f)).find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
      if (!file) throw new RefusedError(`the repository ${url} holds no ${FILE_NAMES.join(" or ")}`);
      return parseCatalog(readFileSync(file, "utf8"), `${url}: ${file.slice(dir.length + 1)}`);
    } catch (error) {
      if (error instanceof RefusedError) throw error;
      throw new RefusedError(`could not clone the catalog ${url}: ${(error as Error).message.trim()}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (/^https?:\/\//.test(origin)) {
    let response: Response;
    try {
      response = await fetch(origin);
    } catch (error) {
      throw new RefusedError(`could not fetch the catalog ${origin}: ${(error as Error).message}`);
    }
    if (!response.ok) throw new RefusedError(`could not fetch the catalog ${origin}: HTTP ${response.status}`);
    return parseCatalog(await response.text(), origin);
  }
  let text: string;
  try {
    text = readFileSync(origin, "utf8");
  } catch (error) {
    throw new RefusedError(`cannot read the catalog ${origin}: ${(error as Error).message}`);
  }
  return parseCatalog(text, origin);
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
  const catalog = await fetchCatalog(where);
  return { origin: where, updatedAt: new Date().toISOString(), catalog: { ...catalog, name: name ?? catalog.name } };
}

/** Keeps `record` among the catalogs under `home` (and their blocked versions), as `market add` does. */
export function keepCatalog(home: string, record: CatalogRecord): void {
  save(home, record);
  writeBlocked(home);
}

export interface AddCatalogOptions {
  cwd: string;
  /** The managed settings' `plugins.allowedCatalogs`: when set, only these origins or catalog names may be added. */
  allowed?: readonly string[];
  /** Where the managed settings are, for the refusal. */
  managedFile?: string;
}

export async function addCatalog(keelHome: string, origin: string, options: AddCatalogOptions): Promise<CatalogRecord> {
  const where = normalOrigin(origin, options.cwd);
  const allowed = (catalog: Catalog) =>
    !options.allowed ||
    options.allowed.some((a) => a === where || a === origin || a === catalog.name || sameOrigin(a, where, options.cwd));
  const catalog = await fetchCatalog(where);
  if (!allowed(catalog)) throw notAllowed(where, options);
  const existing = listCatalogs(keelHome).find((r) => r.catalog.name === catalog.name);
  if (existing && existing.origin !== where)
    throw new RefusedError(
      `a catalog named "${catalog.name}" is already added from ${existing.origin}; remove it first ` +
        `(\`keel market remove ${catalog.name}\`)`,
    );
  const record = { origin: where, updatedAt: new Date().toISOString(), catalog };
  keepCatalog(keelHome, record);
  return record;
}

function sameOrigin(allowed: string, where: string, cwd: string): boolean {
  if (/^(https?|git)[:+]/.test(allowed)) return false;
  try {
    return normalOrigin(allowed, cwd) === where;
  } catch {
    return false;
  }
}

function notAllowed(where: string, options: AddCatalogOptions): RefusedError {
  return new RefusedError(
    `the catalog ${where} is not in plugins.allowedCatalogs of the managed ` +
      `settings${options.managedFile ? ` (${options.managedFile})` : ""}; ask your administrator to add it`,
  );
}

/** Fetches catalogs again from where they were added (all, or the one named); returns what was updated. */
export async function updateCatalogs(keelHome: string, name?: string): Promise<CatalogRecord[]> {
  const records = listCatalogs(keelHome).filter((r) => !name || r.catalog.name === name);
  if (name && records.length === 0) throw new RefusedError(`no catalog named "${name}" is added`);
  const out: CatalogRecord[] = [];
  for (const record of records) {
    const catalog = await fetchCatalog(record.origin);
    const updated = {
      ...record,
      updatedAt: new Date().toISOString(),
      catalog: { ...catalog, name: record.catalog.name },
    };
    save(keelHome, updated);
    out.push(updated);
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
