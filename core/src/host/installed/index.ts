/**
 * `@keel/core/installed`: the lock format and the tree hash the installer writes and the host checks at load.
 * One definition for both sides, so what is verified is exactly what was recorded.
 */
export * from "./lock-file.js";
export * from "./tree-hash.js";
export { installedPlace, verifyInstalled, type Refusal, type VerifyOptions } from "./verify.js";
export { apiFits } from "../api-fit.js";
export { declaredNames, readManifest, type ManifestResult } from "../manifest.js";
export { keelCacheDir } from "../../cache-dir.js";
