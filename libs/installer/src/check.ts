/**
 * What is checked in a staged plugin before anything of it is kept: it is a keel plugin, this keel can run it
 * (`apiVersion`), what it depends on is installed in range (`dependsOn`), it needs no lifecycle script, and no
 * catalog blocked its version. Each refusal says exactly why and what to do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import satisfies from "semver/functions/satisfies.js";
import { API_VERSION, type PluginPackage } from "@keel/extensions-api";
import { apiFits, readManifest } from "@keel/core/installed";
import { installScripts } from "./dependencies.ts";

/** Thrown for a plugin keel will not install; the message is for the user as it stands. */
export class RefusedError extends Error {}

export interface CheckContext {
  /** The command's name, for messages. */
  command: string;
  /** Plugins the host can see (name → version), for `dependsOn`. */
  installed: ReadonlyMap<string, string>;
  /** Why a catalog blocked this version, if one did. */
  blocked?(name: string, version: string): string | undefined;
}

export function checkStaged(dir: string, context: CheckContext): PluginPackage {
  const read = readManifest(dir);
  if (!read.ok) throw new RefusedError(read.error);
  const { pkg } = read;
  const who = `${pkg.name}@${pkg.version}`;
  const block = context.blocked?.(pkg.name, pkg.version);
  if (block) throw new RefusedError(`${who} is blocked: ${block}. It was not installed.`);
  const fit = apiFits(pkg.keel.apiVersion);
  if (fit === "invalid")
    throw new RefusedError(`${who}: its keel.apiVersion "${pkg.keel.apiVersion}" is not a semver range`);
  if (fit === "no")
    throw new RefusedError(
      `${who} needs keel's extension API ${pkg.keel.apiVersion}, but this ${context.command} provides ${API_VERSION}; update ${context.command} or install an older version of the plugin`,
    );
  for (const [dep, range] of Object.entries(pkg.keel.dependsOn)) {
    const have = context.installed.get(dep);
    if (have === undefined)
      throw new RefusedError(
        `${who} depends on the plugin ${dep} (${range}), which is not installed; install it first (\`${context.command} install ${dep}\`)`,
      );
    if (!satisfies(have, range, { includePrerelease: true }))
      throw new RefusedError(`${who} depends on ${dep} ${range}, but ${dep}@${have} is installed; update ${dep} first`);
  }
  // The manifest schema keeps only keel's fields; the scripts are read from the file as written.
  const raw = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  const scripts = installScripts(raw, dir);
  if (scripts.length > 0)
    throw new RefusedError(
      `${who} has a ${scripts.join(", ")} script; keel never runs lifecycle scripts, and a plugin that needs one to work cannot be installed. Ask its author to ship what the script builds.`,
    );
  return pkg;
}
