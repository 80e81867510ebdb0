/**
 * `@keel/installer`: how keel installs plugins. Resolve a source, fetch it without running any script, check
 * it, ask, install its dependencies, stage and swap it, and keep the scope's keel.lock; catalogs to find
 * plugins by name. The marketplace plugin's commands and `keel dist build` both call it. Everything heavy
 * (pacote, Arborist, tar) is imported on first use.
 */
export { parseSource, sourceText, type Source } from "./source.js";
export { IntegrityError } from "./fetch.js";
export { RefusedError, type CheckContext } from "./check.js";
export { HOST_PACKAGES } from "./dependencies.js";
export {
  INSTALL_STEPS,
  installPlugin,
  type Installed,
  type InstallOptions,
  type InstallPlan,
  type InstallStep,
} from "./install.js";
export { installFromLock, pinnedSource, type SyncResult } from "./lock-sync.js";
export { pluginDir, scopeLock, writeLock, type Scope } from "./scope.js";
export { moveOut, previousEntry, rollBack } from "./swap.js";
export {
  addCatalog,
  blockedVersions,
  listCatalogs,
  parseCatalog,
  removeCatalog,
  updateCatalogs,
  type AddCatalogOptions,
  type CatalogRecord,
} from "./catalogs.js";
export { resolveName, searchCatalogs, type Resolved } from "./resolve.js";
