/**
 * The installer's options as the commands use them: the scope, the registry and cache, the plugins the host
 * sees (for `dependsOn`), the versions catalogs blocked, and the user's answer.
 */
import { join } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { blockedVersions, type InstallOptions, type Scope } from "@keel/installer";
import { allCatalogs } from "./catalogs.ts";
import { confirmPlan } from "./consent.ts";
import { pluginRefused } from "./policy.ts";
import type { MarketplaceSettings } from "./settings.ts";

export function installOptions(
  scope: Scope,
  context: CliContext,
  settings: MarketplaceSettings,
  options: Record<string, unknown>,
): InstallOptions {
  const blocked = blockedVersions(allCatalogs(context));
  return {
    scope,
    cwd: context.cwd,
    registry: settings.registry,
    cache: join(context.keelHome, "cache", "npm"),
    command: context.command,
    installed: new Map(context.listPlugins().map((p) => [p.name, p.version])),
    blocked: (name, version) => {
      const b = blocked[`${name}@${version}`];
      return b && `the catalog "${b.catalog}" blocked this version: ${b.reason}`;
    },
    refused: (name) => pluginRefused(context.installPolicy, name),
    verify: settings.verifyCommand
      ? { command: settings.verifyCommand, timeoutMs: settings.verifyTimeoutMs }
      : undefined,
    allowGit: options.allowGit === true,
    allowRemote: options.allowRemote === true,
    confirm: confirmPlan(context, options.yes === true),
    warn: (message) => context.stderr(`${context.command}: ${message}\n`),
  };
}

/** Runs a command body; a refusal or a usage error becomes its message and exit code 1. */
export async function guarded(context: CliContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    context.stderr(`${context.command}: ${(error as Error).message}\n`);
    return 1;
  }
}
