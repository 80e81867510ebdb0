/**
 * A distribution: a named set of plugins, default settings and prompt, shipped as its own command with its own
 * home folder. Read from the `keelDistribution` field of a package.json whose name, version and description it
 * shares (keel's default coding agent is one; the kernel names no plugin itself), or from a distribution
 * manifest whose plugins are all local (`keel` and `path:` sources), as the test kit and `dist run` do.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import {
  DistributionManifestSchema,
  DistributionPackageSchema,
  distributionSettings,
  type DistributionPlugin,
  type TrustedCatalog,
} from "@keel/extensions-api";
import type { SettingsObject } from "../settings/layers.js";

export interface Distribution {
  name: string;
  /** The command users type; every message and `--help` says it. */
  command: string;
  version: string;
  description?: string;
  /** Absolute plugin folders, in load order. */
  plugins: string[];
  /**
   * The folder of a package-shaped distribution (the default one, a built one): the catalogs a built one ships
   * are in its `catalogs/`, and the versions they block are refused at load like the user's catalogs' ones.
   */
  root?: string;
  /** Default settings, under the user's and project's. */
  settings: SettingsObject;
  /** Settings keys (dotted) only `settings` decides: user, project and `--settings` cannot change them. */
  locked: string[];
  /** Added after the system prompt, whatever the settings made it. */
  promptAdditions: string[];
  catalogs: TrustedCatalog[];
}

function issuesOf(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `"${i.path.map(String).join(".")}": ${i.message}`).join("; ");
}

/** Reads a distribution: a package.json with `keelDistribution`, or a manifest with local plugins only. */
export function readDistribution(file: string): Distribution {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read the distribution ${file}: ${(error as Error).message}`);
  }
  if (typeof raw === "object" && raw !== null && !("keelDistribution" in raw)) return fromManifest(file, raw);
  const parsed = DistributionPackageSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid distribution in ${file}: ${issuesOf(parsed.error)}`);
  const { name, version, description, keelDistribution: d } = parsed.data;
  const root = dirname(file);
  return { name, version, description, ...d, root, plugins: d.plugins.map((p) => resolve(root, p)) };
}

function fromManifest(file: string, raw: unknown): Distribution {
  const parsed = DistributionManifestSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid distribution manifest ${file}: ${issuesOf(parsed.error)}`);
  const manifest = parsed.data;
  return {
    name: manifest.name,
    command: manifest.command,
    version: manifest.version,
    description: manifest.description,
    plugins: manifest.plugins.map((p) => localPluginDir(file, p)),
    settings: distributionSettings(manifest),
    locked: manifest.locked,
    promptAdditions: manifest.promptAdditions,
    catalogs: manifest.catalogs,
  };
}

/** The folder of a plugin with a local source, checked to be the exact version the manifest names. */
export function localPluginDir(file: string, plugin: DistributionPlugin): string {
  const where = `${file}: plugin ${plugin.name}@${plugin.version}`;
  let dir: string;
  if (plugin.source === "keel") {
    try {
      // keel's own plugins are packages beside the kernel (workspaces in the repository, dependencies when
      // installed), so they resolve from here.
      dir = dirname(createRequire(import.meta.url).resolve(`${plugin.name}/package.json`));
    } catch {
      throw new Error(`${where}: no keel plugin of that name is installed with keel. Check the name.`);
    }
  } else if (plugin.source.startsWith("path:")) dir = resolve(dirname(file), plugin.source.slice(5));
  else
    throw new Error(
      `${where} comes from ${plugin.source}, which must be fetched first: build the distribution ` +
        `(\`keel dist build ${file} --out <dir>\`) and run the built command.`,
    );
  let found: { name?: string; version?: string };
  try {
    found = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch (error) {
    throw new Error(`${where}: ${dir} has no readable package.json (${(error as Error).message}).`);
  }
  if (found.name !== plugin.name || found.version !== plugin.version)
    throw new Error(`${where}: ${dir} holds ${found.name}@${found.version}. Name the version that is there.`);
  return dir;
}

/**
 * The home folder of a distribution's command: `$<COMMAND>_HOME` (`KEEL_HOME` for keel), else
 * `~/.<command>`: a custom agent never shares keel's plugins, settings or sessions.
 */
export function distributionHome(command: string, env: NodeJS.ProcessEnv = process.env): string {
  return env[`${command.toUpperCase().replace(/-/g, "_")}_HOME`] || join(homedir(), `.${command}`);
}
