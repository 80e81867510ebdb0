/**
 * Installing one plugin into a scope, atomically: fetch → unpack into a staging folder → check → ask →
 * install its dependencies → hash the tree → swap it in and write the lock. Any failure before the swap
 * deletes the staging folder and leaves the installed version as it was; the swap undoes itself (swap.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { linkOf } from "./link.ts";
import { join } from "node:path";
import { declaredNames, treeHash, type LockEntry } from "@keel/plugin-lock";
import { addedCapabilities, type DeclaredContributions, type PluginPackage } from "@keel/extensions-api";
import lt from "semver/functions/lt.js";
import { checkStaged, RefusedError, type CheckContext } from "./check.ts";
import type { Cooldown } from "./cooldown.ts";
import { dependenciesWithScripts, installDependencies, ownDependencies, type LockedPackages } from "./dependencies.ts";
import { refuseLinked, writeEntryManifest, type EntryManifest } from "./entry-manifest.ts";
import { fetchTarball, unpack, type Fetched } from "./fetch.ts";
import { fetchGitTree } from "./git-tree.ts";
import { scopeLock, stagingDir, type Scope } from "./scope.ts";
import { sourceText, type Source } from "./source.ts";
import { swapIn } from "./swap.ts";
import { runVerifyCommand, type VerifyCommand } from "./verify-command.ts";

/** The steps of an install, in order; `onStep` hears each before it runs. */
export const INSTALL_STEPS = ["fetch", "unpack", "check", "consent", "dependencies", "verify", "swap"] as const;
export type InstallStep = (typeof INSTALL_STEPS)[number];

/** What the user is asked to agree to. */
export interface InstallPlan {
  name: string;
  version: string;
  source: string;
  description?: string;
  contributes: DeclaredContributions;
  capabilities: string[];
  /** The entry this replaces, when it is an update. */
  previous?: LockEntry;
  /** Capabilities and hooks the previous version did not have (an update asks again when any). */
  added: { capabilities: string[]; hooks: string[] };
  /** The catalog the name was found in. */
  catalog?: string;
  /** For a package of another format: which, what of it keel runs, and what it does not run and why. */
  format?: { name: string; runs: string[]; unhonoured: string[] };
}

export interface InstallOptions extends CheckContext {
  scope: Scope;
  /** Where the command runs, for relative sources. */
  cwd: string;
  registry?: string;
  /** pacote's and Arborist's cache folder. */
  cache: string;
  /** The sha512 the tarball must have. */
  integrity?: string;
  /** The source as the lock records it, when not `source` itself (a catalog name, resolved again on update). */
  recordAs?: string;
  /** The catalog the source came from, recorded in the lock. */
  catalog?: string;
  /** Git and remote-URL sources (and such dependencies) are fetched only when allowed. */
  allowGit?: boolean;
  allowRemote?: boolean;
  /**
   * The version installed now (an update): when the fetched tarball has its sha512, nothing changes; nor when
   * the cooldown leaves only an older version than it.
   */
  current?: { name: string; integrity?: string; version?: string };
  /** The operator's check of the staged package (`marketplace.verifyCommand`); it fails closed. */
  verify?: VerifyCommand;
  /** `marketplace.minReleaseAge` as it applies here (none when the version was named exactly). */
  cooldown?: Cooldown;
  /** A dependency tree to install exactly (from the lock). */
  locked?: LockedPackages;
  /** A Claude Code catalog entry's own manifest fields, written into the plugin's folder (entry-manifest.ts). */
  entryManifest?: EntryManifest;
  /** The name the catalog lists the plugin by, for a manifest the entry writes. */
  entryName?: string;
  /** The tree hash the result must have (reproducing a lock). */
  expectTree?: string;
  /**
   * Asks the user; false declines. Called for a new plugin, and for an update only when `plan.added` is not
   * empty. `always` asks even then.
   */
  confirm(plan: InstallPlan): Promise<boolean>;
  /** Ask for every update, not only when capabilities or hooks grow. */
  alwaysConfirm?: boolean;
  /** Hears each step before it runs; a step that throws fails the install there. */
  onStep?(step: InstallStep): void | Promise<void>;
  /** Dependencies whose install scripts were not run, and similar notes. */
  warn?(message: string): void;
  now?: () => Date;
}

export interface Installed {
  name: string;
  /** The entry now in the lock (undefined when a new plugin was declined). */
  entry?: LockEntry;
  /** What happened: installed (or updated), declined by the user, or already the same tarball. */
  outcome: "installed" | "declined" | "unchanged";
}

export async function installPlugin(source: Source, options: InstallOptions): Promise<Installed> {
  if (source.kind === "catalog") throw new Error("a catalog name must be resolved before it is installed");
  if (source.kind === "git" && !options.allowGit)
    throw new RefusedError(
      `${sourceText(source)}: git sources are opt-in; add --allow-git to install from this repository`,
    );
  if (source.kind === "remote" && !options.allowRemote)
    throw new RefusedError(`${source.url}: tarballs from a URL are opt-in; add --allow-remote to install from it`);
  const step = async (name: InstallStep) => options.onStep?.(name);
  mkdirSync(stagingDir(options.scope), { recursive: true });
  const stage = mkdtempSync(join(stagingDir(options.scope), "install-"));
  try {
    await step("fetch");
    const fetched = source.kind === "folder" ? undefined : await fetchPackage(source, stage, options);
    if (fetched?.integrity && options.current && fetched.integrity === options.current.integrity)
      return { name: options.current.name, outcome: "unchanged" };
    await step("unpack");
    if (fetched?.data) await unpack(fetched.data, stage);
    if (options.entryManifest) {
      if (source.kind === "folder") refuseLinked(options.expectName ?? source.path, source.path);
      writeEntryManifest(stage, options.entryName ?? "plugin", undefined, options.entryManifest);
    }
    await step("check");
    const pkg = checkStaged(source.kind === "folder" ? source.path : stage, {
      ...options,
      expectName: options.expectName ?? options.current?.name,
    });
    if (options.current?.version && options.cooldown && lt(pkg.version, options.current.version))
      return { name: options.current.name, outcome: "unchanged" };
    const plan = planOf(pkg, source, options);
    await step("consent");
    const asks =
      !plan.previous || options.alwaysConfirm || plan.added.capabilities.length + plan.added.hooks.length > 0;
    if (asks && !(await options.confirm(plan))) return { name: pkg.name, entry: plan.previous, outcome: "declined" };
    await step("dependencies");
    const packages =
      fetched && Object.keys(ownDependencies(readPackageJson(stage) ?? {})).length > 0
        ? await installDependencies(stage, {
            registry: options.registry,
            cache: options.cache,
            allowGit: options.allowGit ?? false,
            allowRemote: options.allowRemote ?? false,
            locked: options.locked,
          })
        : {};
    for (const dep of fetched ? dependenciesWithScripts(stage) : [])
      options.warn?.(`${pkg.name}: the dependency ${dep} has an install script; keel did not run it.`);
    await step("verify");
    if (options.verify) await runVerifyCommand(options.verify, source.kind === "folder" ? source.path : stage, pkg);
    const tree = fetched ? treeHash(stage) : undefined;
    if (options.expectTree && tree && tree !== options.expectTree)
      throw new RefusedError(
        `${pkg.name}@${pkg.version} installed from ${sourceText(source)} is not the tree keel.lock ` +
          `recorded (${options.expectTree}, got ${tree}); nothing was changed`,
      );
    const link = source.kind === "folder" ? linkOf(options.scope, pkg.name, source.path) : undefined;
    const entry: LockEntry = {
      source: options.recordAs ?? link?.source ?? sourceText(source),
      version: pkg.version,
      resolved: fetched?.resolved,
      commit: source.kind === "git" ? fetched?.resolved.split("#")[1] : undefined,
      integrity: fetched?.integrity,
      tree,
      linked: source.kind === "folder" ? true : undefined,
      catalog: options.catalog,
      capabilities: plan.capabilities,
      hooks: plan.contributes.hooks,
      ...(Object.keys(packages).length > 0 ? { packages } : {}),
      ...(options.entryManifest && { entryManifest: options.entryManifest }),
      installedAt: (options.now?.() ?? new Date()).toISOString(),
    };
    await step("swap");
    if (source.kind === "folder") {
      rmSync(stage, { recursive: true, force: true });
      symlinkSync(link!.target, stage, "dir");
    }
    swapIn(options.scope, pkg.name, stage, entry);
    return { name: pkg.name, entry, outcome: "installed" };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** A package's package.json; undefined for a package of another format that has none. */
function readPackageJson(dir: string): Record<string, unknown> | undefined {
  const file = join(dir, "package.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : undefined;
}

/** The tarball pacote fetches, or for a git repository that is not an npm package, its files copied by git. */
async function fetchPackage(source: Source, stage: string, options: InstallOptions): Promise<Fetched> {
  try {
    return await fetchTarball(source, { ...options, where: options.cwd });
  } catch (error) {
    if (source.kind !== "git" || !/Could not read package\.json/.test((error as Error).message)) throw error;
    return fetchGitTree(source.url, source.ref, stage);
  }
}

function planOf(pkg: PluginPackage, source: Source, options: InstallOptions): InstallPlan {
  const previous = scopeLock(options.scope).plugins[pkg.name];
  const contributes = declaredNames(pkg.keel);
  const capabilities = [...pkg.keel.capabilities];
  return {
    name: pkg.name,
    version: pkg.version,
    source: sourceText(source),
    description: pkg.keel.description ?? (pkg as { description?: string }).description,
    contributes,
    capabilities,
    previous,
    added: previous
      ? {
          capabilities: addedCapabilities(previous.capabilities, capabilities),
          hooks: contributes.hooks.filter((h) => !previous.hooks.includes(h)),
        }
      : { capabilities: [], hooks: [] },
    catalog: options.catalog,
    ...(pkg.keel.content?.format && { format: formatOf(pkg) }),
  };
}

/** What of another format's package keel runs, named by kind; refused when it is nothing. */
function formatOf(pkg: PluginPackage): NonNullable<InstallPlan["format"]> {
  const c = pkg.keel.content!;
  const count = (items: readonly unknown[], kind: string) => (items.length ? [`${kind} (${items.length})`] : []);
  const runs = [
    ...count(pkg.keel.skills, "skill folders"),
    ...count(c.commands, "command folders"),
    ...count(c.agents, "agent folders"),
    ...count(c.hooks, "hook configurations"),
    ...count(c.mcpServers, "MCP configurations"),
    ...count(c.instructions, "context files"),
    ...count(c.deny, "excluded tools"),
  ];
  if (runs.length === 0)
    throw new RefusedError(
      `${pkg.name}@${pkg.version} (${c.format}) holds nothing keel can run` +
        (c.unhonoured.length ? `: it has only ${c.unhonoured.join("; ")}` : ""),
    );
  return { name: c.format!, runs, unhonoured: c.unhonoured };
}
