/**
 * `keel plugin validate [dir]`: every problem of a plugin package at once. The host loads the folder alone in a
 * scratch keel and activates it (`CliContext.inspectPlugin`: manifest schema, `apiVersion`, `dependsOn`, the
 * entry loading, settings, what `activate` registers against `contributes`); this adds what the host does not
 * look at: lifecycle scripts (the plugin's and its installed dependencies') and capabilities its code needs.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { missingCapabilities } from "./capabilities.ts";

/** The scripts npm runs when a package is installed; keel never runs them, so a plugin must not need one. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];

interface RawPackage {
  name?: string;
  version?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  keel?: { capabilities?: unknown };
}

function readRaw(dir: string): RawPackage | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as RawPackage;
  } catch {
    return undefined;
  }
}

function installScripts(dir: string, pkg: RawPackage): string[] {
  const scripts = INSTALL_SCRIPTS.filter((s) => typeof pkg.scripts?.[s] === "string");
  // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script of its own.
  if (existsSync(join(dir, "binding.gyp")) && !scripts.includes("install")) scripts.push("install (binding.gyp)");
  return scripts;
}

export interface Validation {
  name: string;
  version: string;
  problems: string[];
}

export async function validatePlugin(dir: string, context: Pick<CliContext, "inspectPlugin">): Promise<Validation> {
  const pkg = readRaw(dir);
  if (!pkg) return { name: dir, version: "", problems: [`${join(dir, "package.json")} is missing or not JSON.`] };
  const problems = await context.inspectPlugin(dir);
  const own = installScripts(dir, pkg);
  if (own.length > 0)
    problems.push(
      `package.json has install scripts (${own.join(", ")}); keel never runs them. Ship what they ` +
        `build, or do it on first use.`,
    );
  for (const dependency of Object.keys(pkg.dependencies ?? {})) {
    const depDir = join(dir, "node_modules", dependency);
    const dep = readRaw(depDir);
    const scripts = dep ? installScripts(depDir, dep) : [];
    if (scripts.length > 0)
      problems.push(
        `dependency ${dependency} has install scripts (${scripts.join(", ")}); keel never runs ` +
          `them, so it would be installed broken. Choose a dependency without them.`,
      );
  }
  const declared = Array.isArray(pkg.keel?.capabilities) ? (pkg.keel.capabilities as string[]) : [];
  for (const need of missingCapabilities(dir, declared))
    problems.push(`its code needs a capability keel.capabilities does not declare: ${need}.`);
  return { name: pkg.name ?? dir, version: pkg.version ?? "", problems };
}
