/**
 * `@keel/installer`: how keel installs plugins. Resolve a source, fetch it without running any script, check
 * it, ask, install its dependencies, stage and swap it, and keep the scope's keel.lock; catalogs to find
 * plugins by name. The marketplace plugin's commands and `keel dist build` both call it. Everything heavy
 * (pacote, Arborist, tar) is imported on first use.
 */
export { parseSource, sourceText, type Source } from "./source.ts";
export { IntegrityError } from "./fetch.ts";
export { AGE_PATTERN, cooldownFor, parseAge, type Cooldown } from "./cooldown.ts";
export { MissingDependencyError, RefusedError, type CheckContext } from "./check.ts";
export { HOST_PACKAGES } from "./dependencies.ts";
export {
  INSTALL_STEPS,
  installPlugin,
  type Installed,
  type InstallOptions,
  type InstallPlan,
  type InstallStep,
} from "./install.ts";
export { installFromLock, pinnedSource, type SyncResult } from "./lock-sync.ts";
export { pluginDir, scopeLock, writeLock, type Scope } from "./scope.ts";
export { recordCopied } from "./record-copied.ts";
export { moveOut, previousEntry, rollBack } from "./swap.ts";
export { purgePlugin } from "./purge.ts";
export {
  addCatalog,
  catalogListed,
  blockedVersions,
  keepCatalog,
  listCatalogs,
  readCatalog,
  removeCatalog,
  updateCatalogs,
  type AddCatalogOptions,
  type CatalogRecord,
  type CatalogUpdate,
  type UpdateCatalogOptions,
} from "./catalogs.ts";
export { parseCatalog } from "./catalog-parse.ts";
export { PUBLIC_KEY_FILE } from "./catalog-fetch.ts";
export type { PinnedKey } from "./catalog-signature.ts";
export {
  fingerprint,
  generateKeyPair,
  parsePublicKey,
  parseSecretKey,
  signData,
  SignatureError,
  verifySignature,
} from "./minisign.ts";
export { resolveName, searchCatalogs, type Resolved } from "./resolve.ts";
export { type EntryManifest } from "./entry-manifest.ts";
