/**
 * The one catalog of package formats other hosts defined, each read into a keel manifest by its adapter: the
 * package's components become `keel.skills` and `keel.content` (commands, agents, hooks, MCP servers, instruction
 * files, deny rules), which keel's own plugins read, and what their contents imply becomes `keel.capabilities`.
 * A part keel cannot run is kept in `content.unhonoured` with why, so install and `keel info` name it. The host
 * and the installer read a folder through here only when it has no package.json with a `keel` field, so a keel
 * plugin costs nothing more, and a plain run with no such package reads none of these files.
 */
import { join } from "node:path";
import { PluginPackageSchema, type PackageFormat, type PluginPackage } from "@keel/extensions-api";
import { AGENT_PLUGINS } from "./agent-plugins.js";
import { CLAUDE_CODE } from "./claude-code.js";
import { CODEX } from "./codex.js";
import { GEMINI } from "./gemini.js";
import { isObject, readJson, type PackageAdapter } from "./shared.js";

/**
 * In the order a folder is tried: a package that ships several manifests (one for each host) is read by the
 * first, Claude Code's being the richest (commands, agents and hooks besides skills and MCP servers).
 */
export const PACKAGE_ADAPTERS: readonly PackageAdapter[] = [CLAUDE_CODE, CODEX, AGENT_PLUGINS, GEMINI];

/** The API range a package of another format is read for: the contract's first major, which reads every one. */
const API_RANGE = "^1.0.0";

export type ForeignResult =
  | { ok: true; pkg: PluginPackage; format: PackageFormat; file: string }
  | { ok: false; name: string; error: string; format: PackageFormat };

/** The package in `dir` read by the first adapter whose manifest is there; undefined when none is. */
export function readForeignPackage(dir: string): ForeignResult | undefined {
  for (const adapter of PACKAGE_ADAPTERS) {
    const file = join(dir, adapter.manifest);
    const read = readJson(file);
    if (!read) continue;
    if ("problem" in read) return { ok: false, name: dir, error: read.problem, format: adapter.format };
    if (adapter.claims && !adapter.claims(read.value)) continue;
    if (!isObject(read.value))
      return { ok: false, name: dir, error: `${file} is not a JSON object`, format: adapter.format };
    const adapted = adapter.read(dir, read.value);
    if ("refused" in adapted)
      return { ok: false, name: dir, error: `${dir}: ${adapted.refused}`, format: adapter.format };
    const parsed = PluginPackageSchema.safeParse({
      name: adapted.name,
      version: adapted.version,
      ...(adapted.description && { description: adapted.description }),
      keel: {
        apiVersion: API_RANGE,
        ...(adapted.description && { description: adapted.description }),
        capabilities: adapted.capabilities,
        skills: adapted.skills,
        content: adapted.content,
      },
    });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
      return {
        ok: false,
        name: adapted.name,
        error: `${file} (${adapter.title}) maps to no valid manifest: ${issues}`,
        format: adapter.format,
      };
    }
    return { ok: true, pkg: parsed.data, format: adapter.format, file };
  }
  return undefined;
}
