/**
 * Reading a catalog from where it was added (a file, a git repository, an https URL) with what signs it: the
 * minisign signature beside the file (`marketplace.json.minisig`) and the owner's public key beside it
 * (`minisign.pub`), when they are there. The bytes are kept as fetched, since the signature covers them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Catalog } from "@keel/extensions-api/catalog";
import { RefusedError } from "./check.ts";
import { parseCatalog } from "./catalog-parse.ts";

export const CATALOG_FILE_NAMES = [
  "marketplace.json",
  ".keel-plugin/marketplace.json",
  ".claude-plugin/marketplace.json",
];
/** The name minisign gives a public key by default, and where keel looks for the owner's beside a catalog. */
export const PUBLIC_KEY_FILE = "minisign.pub";

export interface FetchedCatalog {
  catalog: Catalog;
  /** The catalog file's bytes, as signed. */
  data: Buffer;
  /** The text of `<file>.minisig`, when there is one. */
  signature?: string;
  /** The text of `minisign.pub` beside the file, when there is one. */
  publicKey?: string;
}

/** The origin as stored: absolute path of the JSON file, the URL, or `git:<url>`. */
export function normalOrigin(origin: string, cwd: string): string {
  if (/^https?:\/\//.test(origin) && !/\.git(#.*)?$/.test(origin)) return origin;
  if (/^(git:|git\+)/.test(origin)) return `git:${origin.replace(/^git[:+]/, "")}`;
  if (/\.git(#.*)?$/.test(origin)) return `git:${origin}`;
  const path = resolve(cwd, origin);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    const file = catalogFileIn(path);
    if (!file) throw new RefusedError(`${path} holds no ${CATALOG_FILE_NAMES.join(" or ")}`);
    return file;
  }
  return path;
}

function catalogFileIn(dir: string): string | undefined {
  return CATALOG_FILE_NAMES.map((f) => join(dir, f)).find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new RefusedError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function fromDisk(file: string, where: string): FetchedCatalog {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    throw new RefusedError(`cannot read the catalog ${where}: ${(error as Error).message}`);
  }
  return {
    catalog: parseCatalog(data.toString("utf8"), where),
    data,
    signature: readOptional(`${file}.minisig`),
    publicKey: readOptional(join(dirname(file), PUBLIC_KEY_FILE)),
  };
}

/** Options for fetching over https: headers to send (credentials the user configured). */
export interface CatalogFetchOptions {
  headers?: (url: string) => Record<string, string>;
}

async function get(url: string, options: CatalogFetchOptions, optional: boolean): Promise<Buffer | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { headers: options.headers?.(url) ?? {} });
  } catch (error) {
    throw new RefusedError(`could not fetch ${url}: ${(error as Error).message}`);
  }
  if (optional && response.status === 404) return undefined;
  if (!response.ok) throw new RefusedError(`could not fetch ${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

export async function fetchCatalog(origin: string, options: CatalogFetchOptions = {}): Promise<FetchedCatalog> {
  if (origin.startsWith("git:")) {
    const [url, ref] = origin.slice(4).split("#", 2) as [string, string | undefined];
    const dir = mkdtempSync(join(tmpdir(), "keel-catalog-"));
    try {
      const args = ["clone", "--quiet", "--depth", "1", ...(ref ? ["--branch", ref] : []), url, dir];
      // Hooks and filters of the cloned repository must not run: no checkout hooks, no configured filters.
      execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { stdio: ["ignore", "ignore", "pipe"] });
      const file = catalogFileIn(dir);
      if (!file) throw new RefusedError(`the repository ${url} holds no ${CATALOG_FILE_NAMES.join(" or ")}`);
      return fromDisk(file, `${url}: ${file.slice(dir.length + 1)}`);
    } catch (error) {
      if (error instanceof RefusedError) throw error;
      throw new RefusedError(`could not clone the catalog ${url}: ${(error as Error).message.trim()}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (/^https?:\/\//.test(origin)) {
    const [data, signature, publicKey] = await Promise.all([
      get(origin, options, false),
      get(`${origin}.minisig`, options, true),
      get(new URL(PUBLIC_KEY_FILE, origin).href, options, true),
    ]);
    return {
      catalog: parseCatalog(data!.toString("utf8"), origin),
      data: data!,
      signature: signature?.toString("utf8"),
      publicKey: publicKey?.toString("utf8"),
    };
  }
  return fromDisk(origin, origin);
}
