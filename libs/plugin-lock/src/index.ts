/**
 * `@keel/plugin-lock`: what an installed plugin must match, one definition for the installer that records it
 * and the host that checks it at every load — the keel.lock format, the tree hash, the manifest read without
 * running code, and whether this keel's API fits the plugin's range. The host answers a plugin's (the
 * installer's) import of this package with its own copy (`core/src/host/host-specifiers.ts`).
 */
export {
  blockedIndexFile,
  LOCK_FILE,
  LockEntrySchema,
  LockSchema,
  readLock,
  type BlockedIndex,
  type Lock,
  type LockEntry,
} from "./lock-file.js";
export { treeHash } from "./tree-hash.js";
export { verifyInstalled, type VerifyOptions } from "./verify.js";
export { apiFits, rangeFits } from "./api-fit.js";
export { contentPaths, declaredNames, readManifest, withContent, type ManifestResult } from "./read-manifest.js";
export { CacheShards } from "./cache-shards.js";
export { PACKAGE_ADAPTERS, readForeignPackage, type ForeignResult } from "./package-formats/index.js";
export { CLAUDE_UNHONOURED } from "./package-formats/claude-code.js";
export { GEMINI_TOOLS, geminiRule } from "./package-formats/gemini.js";
export { pluginDataDir } from "./package-formats/agent-plugins.js";
