/**
 * Verification at load: every plugin installed by the installer (it has an entry in its scope's keel.lock) is
 * checked against that entry before the host reads its manifest, so a file changed after the user agreed to
 * install it is never run. The full sha512 of the tree is costly, so a cache keeps, per folder, the stamps
 * (sizes and times) of the tree it last found intact; while they are the same, the folder is not read again.
 * A version a catalog blocked is refused too: the user's catalogs' and those a built distribution ships. Folders
 * without a lock entry (copied by hand) load as before.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CacheShards } from "./cache-shards.js";
import { BlockedIndexSchema, blockedIndexFile, readLock, type BlockedIndex, type Lock } from "./lock-file.js";
import { treeHash, treeStamps, walkTree } from "./tree-hash.js";

const FORMAT = 1;

/** Where an installed plugin's folder sits: `<scopeRoot>/plugins/<name>` (or `/@scope/<name>`). */
export function installedPlace(dir: string): { scopeRoot: string; name: string } | undefined {
  const parent = dirname(dir);
  const scoped = basename(parent).startsWith("@");
  const pluginsDir = scoped ? dirname(parent) : parent;
  if (basename(pluginsDir) !== "plugins") return undefined;
  return { scopeRoot: dirname(pluginsDir), name: scoped ? `${basename(parent)}/${basename(dir)}` : basename(dir) };
}

interface CacheEntry {
  tree: string;
  stamps: string;
}

export interface VerifyOptions {
  keelHome: string;
  /** The distribution's command, for the messages (`keel install …`). */
  command: string;
  /** Where the cache of verified trees keeps its files (the host's: `<keel's cache folder>/verified`). */
  cacheDir: string;
  /**
   * The folders a built distribution ships (its own plugins, copied or installed by `dist build` and locked in
   * its `bundled/keel.lock`): a changed one is fixed by building again, not by installing.
   */
  shipped?: ReadonlySet<string>;
  /** A built distribution's folder: the versions its shipped catalogs block (`catalogs/blocked.json`) are refused. */
  distributionRoot?: string;
}

/** An installed plugin that must not load: its name and version as the lock has them, and what to tell the user. */
export interface Refusal {
  name: string;
  version: string;
  reason: string;
}

/** The installed folders among `dirs` that must not load, by folder; folders that may load are absent. */
export function verifyInstalled(dirs: readonly string[], options: VerifyOptions): Map<string, Refusal> {
  const refused = new Map<string, Refusal>();
  const locks = new Map<string, Lock | Error>();
  let blocked: BlockedIndex | undefined;
  let cache: CacheShards<CacheEntry> | undefined;
  for (const dir of dirs) {
    const place = installedPlace(dir);
    if (!place) continue;
    let lock = locks.get(place.scopeRoot);
    if (!lock) {
      lock = existsSync(join(place.scopeRoot, "keel.lock")) ? readLockOrError(place.scopeRoot) : undefined;
      if (!lock) continue;
      locks.set(place.scopeRoot, lock);
    }
    if (lock instanceof Error) {
      const reason = `${lock.message}; nothing installed in that scope loads until it is fixed or reinstalled`;
      refused.set(dir, { name: place.name, version: "?", reason });
      continue;
    }
    const entry = lock.plugins[place.name];
    if (!entry) continue;
    const scopeFlag = place.scopeRoot === options.keelHome ? "" : " --project";
    blocked ??= {
      ...(options.distributionRoot ? readBlocked(options.distributionRoot) : {}),
      ...readBlocked(options.keelHome),
    };
    const block = blocked[`${place.name}@${entry.version}`];
    if (block) {
      refused.set(dir, {
        name: place.name,
        version: entry.version,
        reason:
          `version ${entry.version} is blocked by the catalog ` +
          `"${block.catalog}": ${block.reason}. Remove it (\`${options.command} ` +
          `remove ${place.name}${scopeFlag}\`) or update to a version that is not blocked.`,
      });
      continue;
    }
    if (entry.linked || !entry.tree) continue;
    cache ??= new CacheShards(options.cacheDir, FORMAT);
    const files = walkTree(dir);
    const stamps = createHash("sha1").update(treeStamps(files)).digest("base64");
    const cached = cache.get(dir);
    if (cached && cached.tree === entry.tree && cached.stamps === stamps) continue;
    if (treeHash(dir, files) === entry.tree) {
      cache.set(dir, { tree: entry.tree, stamps });
      continue;
    }
    const changed =
      `its files in ${dir} changed since it was installed (their sha512 is not the one keel.lock recorded), ` +
      "so it was not loaded.";
    const fix = options.shipped?.has(dir)
      ? `It came with the ${options.command} distribution: build the distribution again ` +
        "(`keel dist build <manifest> --out <dir>`) or restore its folder."
      : `Reinstall it with \`${options.command} install ${entry.source}${scopeFlag}\`, ` +
        `or remove it with \`${options.command} remove ${place.name}${scopeFlag}\`.`;
    refused.set(dir, { name: place.name, version: entry.version, reason: `${changed} ${fix}` });
  }
  cache?.save();
  return refused;
}

function readLockOrError(scopeRoot: string): Lock | Error {
  try {
    return readLock(scopeRoot);
  } catch (error) {
    return error as Error;
  }
}

function readBlocked(keelHome: string): BlockedIndex {
  try {
    const parsed = BlockedIndexSchema.safeParse(JSON.parse(readFileSync(blockedIndexFile(keelHome), "utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
