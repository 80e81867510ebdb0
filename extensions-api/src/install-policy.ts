/**
 * What may be installed, as the managed settings say (read from the managed layer alone, as `plugins.allowed` is
 * at load), with the plugins every layer requires: the policy tiers the plugin installer enforces, naming the
 * policy in each refusal.
 */
export interface InstallPolicy {
  /** Where the managed settings are, for the refusals. */
  managedFile: string;
  /** `plugins.required` of every layer that applies: such a plugin is never disabled or removed. */
  required: readonly string[];
  /** `plugins.allowed`: when set, only these plugins may be installed (and load from outside the distribution). */
  allowed?: readonly string[];
  /** `plugins.blocked`: never installed nor loaded, and hidden from `search`. */
  blocked: readonly string[];
  /** `plugins.allowedCatalogs`: when set, only these catalogs (names or origins) may be added. */
  allowedCatalogs?: readonly string[];
  /** `plugins.blockedCatalogs`: catalogs (names or origins) never added nor used, a distribution's own included. */
  blockedCatalogs: readonly string[];
}
