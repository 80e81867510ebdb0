/**
 * Which scope a command works on: yours (`$KEEL_HOME`) or, with `--project`, the workspace's `.keel/` — only
 * when the workspace's configuration is trusted, since project plugins are project configuration.
 */
import { join } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import type { Scope } from "@keel/installer";

/** Thrown for a command that cannot run as asked; the message is the user's. */
export class UsageError extends Error {}

export function scopeOf(options: Record<string, unknown>, context: CliContext): Scope {
  if (!options.project) return { kind: "user", root: context.keelHome };
  if (!context.projectTrusted)
    throw new UsageError(
      `${context.cwd} is not trusted, so its plugins cannot be changed; trust it first ` +
        `(\`${context.command} trust\`) if you mean to`,
    );
  return { kind: "project", root: join(context.cwd, ".keel") };
}

/**
 * Runs `change` on the scope; on the project's through `CliContext.changeProjectConfig`, so a change keel
 * makes there at the user's word keeps a trusted folder trusted.
 */
export function changing<T>(scope: Scope, context: CliContext, change: () => Promise<T>): Promise<T> {
  return scope.kind === "project" ? context.changeProjectConfig(change) : change();
}

/** ` --project` when the scope is the project's, for the commands a message suggests. */
export const scopeFlag = (scope: Scope) => (scope.kind === "project" ? " --project" : "");
