/**
 * What is checked in a staged plugin before anything of it is kept: it is a keel plugin, this keel can run it
 * (`apiVersion`), what it depends on is installed in range (`dependsOn`), it needs no lifecycle script, and no
 * catalog blocked its version. Each refusal says exactly why and what to do.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import satisfies from "semver/functions/satisfies.js";
import { API_VERSION, type PluginPackage } from "@keel/extensions-api";
import { apiFits, readManifest } from "@keel/plugin-lock";
import { installScripts } from "./dependencies.ts";

/** An npm package name, optionally scoped: lowercase letters, digits, `-`, `.`, `_`, `~`. */
const PACKAGE_NAME = /^(@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;

/** Thrown for a plugin keel will not install; the message is for the user as it stands. */
export class RefusedError extends Error {}

/** A `dependsOn` plugin that is not installed: the caller may offer to install it, then try again. */
export class MissingDependencyError extends RefusedError {
  constructor(
    message: string,
    readonly dependency: string,
    readonly range: string,
  ) {
    super(message);
  }
}

export interface CheckContext {
  /** The command's name, for messages. */
  command: string;
  /** Plugins the host can see (name → version), for `dependsOn`. */
  installed: ReadonlyMap<string, string>;
  /** The name the package must have (an update, or a lock entry being reproduced). */
  expectName?: string;
  /** Why a catalog blocked this version, if one did. */
  blocked?(name: string, version: string): string | undefined;
  /** Why a policy (the managed settings') refuses a package of this name, if one does. */
  refused?(name: string): string | undefined;
}

export function checkStaged(dir: string, context: CheckContext): PluginPackage {
  const read = readManifest(dir);
  if (!read.ok) throw new RefusedError(read.error);
  const { pkg } = read;
  const who = `${pkg.name}@${pkg.version}`;
  // The name becomes a folder under plugins/: nothing that could climb out of it.
  if (!PACKAGE_NAME.test(pkg.name) || pkg.name.includes(".."))
    throw new RefusedError(
      `"${pkg.name}" is not an npm package name keel can install under plugins/; it was not installed`,
    );
  if (context.expectName && pkg.name !== context.expectName)
    throw new RefusedError(
      `the source of ${context.expectName} now holds a package named ${pkg.name}; nothing was ` +
        `changed. Remove ${context.expectName} and install the new package by its own name if that is what you want.`,
    );
  const refusal = context.refused?.(pkg.name);
  if (refusal) throw new RefusedError(`${who}: ${refusal}. It was not installed.`);
  const block = context.blocked?.(pkg.name, pkg.version);
  if (block) throw new RefusedError(`${who} is blocked: ${block}. It was not installed.`);
  const fit = apiFits(pkg.keel.apiVersion);
  if (fit === "invalid")
    throw new RefusedError(`${who}: its keel.apiVersion "${pkg.keel.apiVersion}" is not a semver range`);
  if (fit === "no")
    throw new RefusedError(
      `${who} needs keel's extension API ${pkg.keel.apiVersion}, but this ${context.command} ` +
        `provides ${API_VERSION}; update ${context.command} or install an older version of the plugin`,
    );
  for (const [dep, range] of Object.entries(pkg.keel.dependsOn)) {
    const have = context.installed.get(dep);
    if (have === undefined)
      throw new MissingDependencyError(
        `${who} depends on the plugin ${dep} (${range}), which is not installed; install it first ` +
          `(\`${context.command} install npm:${dep}@${range}\`)`,
        dep,
        range,
      );
    if (!satisfies(have, range, { includePrerelease: true }))
      throw new RefusedError(`${who} depends on ${dep} ${range}, but ${dep}@${have} is installed; update ${dep} first`);
  }
  // The manifest schema keeps only keel's fields; the scripts are read from the file as written.
  // A package of another format may have no package.json at all.
  const file = join(dir, "package.json");
  const raw = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  const scripts = installScripts(raw, dir);
  if (scripts.length > 0)
    throw new RefusedError(
      `${who} has a ${scripts.join(", ")} script; keel never runs lifecycle scripts, and a plugin ` +
        `that needs one to work cannot be installed. Ask its author to ship what the script builds.`,
    );
  return pkg;
}
