/**
 * Keeping a project trusted across a change keel itself makes to its configuration (`keel install --project`,
 * `keel disable --project`, …): the user asked for that change in the folder they trust, so asking them to
 * trust the result again would only teach them to say yes. The new content is recorded as trusted only when
 * the user's remembered decision trusted the folder exactly as it was just before the change (or the folder
 * had nothing that needed trust); a change made by anyone else, before or after, still asks again.
 */
import type { ProjectTrust } from "./decide.js";
import { readProjectConfig } from "./project-config.js";
import type { TrustStore } from "./trust-store.js";

/**
 * Runs `change` (which writes the project's configuration) and keeps the folder trusted when it was: unchanged
 * since `trust` was decided, and trusted by the user's remembered decision or holding nothing that needed one.
 */
export async function keepingTrust<T>(
  trust: ProjectTrust,
  store: TrustStore,
  warnings: string[],
  change: () => T | Promise<T>,
): Promise<T> {
  const before = readProjectConfig(trust.config.dir);
  const neededNone = trust.trusted && trust.decidedBy === undefined;
  const keep = before.hash === trust.config.hash && (neededNone || store.remembered(before, warnings) === true);
  const result = await change();
  const after = readProjectConfig(trust.config.dir);
  if (keep && after.hash !== before.hash) await store.remember(after, true, warnings);
  return result;
}
