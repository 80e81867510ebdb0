/**
 * The name a command is given to the package it means: a plugin installed from a catalog is known by two names,
 * its catalog entry's (`jsonfmt`, what the user typed to install it) and its package's (`@acme/keel-jsonfmt`,
 * the lock's key, its folder, and what `plugins.disabled` and the host go by). Every command that names an
 * installed plugin accepts both. The catalog name is read from the lock's `source` (`jsonfmt@*@acme`), and from the
 * version kept for rollback after a removal.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { previousEntry, scopeLock, type Scope } from "@keel/installer";
type LockEntry = NonNullable<ReturnType<typeof previousEntry>>;

/** The catalog entry name a lock entry was installed by, if it came from a catalog. */
function catalogName(entry: LockEntry | undefined): string | undefined {
  if (!entry?.catalog) return undefined;
  // `name@range@catalog`; the name may be scoped (`@acme/x@^1@acme`).
  const match = /^(@?[^@]+)@/.exec(entry.source);
  return match?.[1];
}

/** The packages kept for rollback in the scope (`.previous/<name>`, scoped ones a level deeper). */
function previousNames(scope: Scope): string[] {
  const root = join(scope.root, ".previous");
  const names = (dir: string, prefix = ""): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.includes(".rollback-"))
        .flatMap((e) =>
          e.name.startsWith("@") && !prefix ? names(join(dir, e.name), `${e.name}/`) : [prefix + e.name],
        );
    } catch {
      return [];
    }
  };
  return names(root);
}

/** The package name `typed` means in the scope: itself when installed or kept, else the one its catalog name is. */
export function installedName(scope: Scope, typed: string): string | undefined {
  const lock = scopeLock(scope);
  if (lock.plugins[typed] || previousEntry(scope, typed)) return typed;
  const installed = Object.entries(lock.plugins).find(([, entry]) => catalogName(entry) === typed)?.[0];
  return installed ?? previousNames(scope).find((name) => catalogName(previousEntry(scope, name)) === typed);
}

/**
 * The plugin a `disable`/`enable` means: an installed one by either name, else one the running agent knows (its
 * distribution's, a project's), by package name. Undefined when there is none: such a name is refused rather
 * than written to `plugins.disabled`, where it would disable nothing.
 */
export function knownPlugin(scope: Scope, typed: string, known: readonly { name: string }[]): string | undefined {
  return installedName(scope, typed) ?? known.find((p) => p.name === typed)?.name;
}
