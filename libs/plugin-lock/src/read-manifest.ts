/**
 * Reading a plugin's package.json and its `keel` manifest without running any of its code: the host reads it at
 * load, the installer before installing, so both see one manifest the same way.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readForeignPackage } from "./package-formats/index.js";
import {
  CONTRIBUTION_KINDS,
  contributionName,
  PluginPackageSchema,
  type DeclaredContributions,
  type KeelManifest,
  type PackageFormat,
  type PluginContentPaths,
  type PluginPackage,
} from "@keel/extensions-api";

export type ManifestResult =
  | { ok: true; pkg: PluginPackage; format?: PackageFormat; file?: string }
  | { ok: false; name: string; error: string; format?: PackageFormat };

export function readManifest(dir: string): ManifestResult {
  const file = join(dir, "package.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A package in another host's format has no package.json of keel's (or one without a `keel` field).
    const foreign = code === "ENOENT" ? readForeignPackage(dir) : undefined;
    if (foreign) return foreign;
    const why =
      code === "ENOENT" ? "has no package.json" : `has an unreadable package.json (${(error as Error).message})`;
    return { ok: false, name: dir, error: `${dir} ${why}` };
  }
  const name = typeof (raw as { name?: unknown })?.name === "string" ? (raw as { name: string }).name : dir;
  if (typeof raw !== "object" || raw === null || !("keel" in raw)) {
    const foreign = readForeignPackage(dir);
    if (foreign) return foreign;
    return {
      ok: false,
      name,
      error:
        `${file} has no "keel" field, so it is not a keel plugin. Add "keel": { "apiVersion": ` +
        `"^1.0.0", "entry": "./src/index.ts" }.`,
    };
  }
  const parsed = PluginPackageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
    return { ok: false, name, error: `invalid manifest in ${file}: ${issues}` };
  }
  return { ok: true, pkg: parsed.data };
}

/**
 * The names a manifest declares, per kind: what listings show and registrations are checked against. The
 * providers declared in data (`keel.providers`) count as contributed providers.
 */
export function declaredNames(
  manifest: Pick<KeelManifest, "contributes" | "providers"> | undefined,
): DeclaredContributions {
  const contributes = manifest?.contributes;
  const out = Object.fromEntries(
    CONTRIBUTION_KINDS.map((kind) => [
      kind,
      ((contributes?.[kind] ?? []) as (string | { name: string })[]).map(contributionName),
    ]),
  );
  out.providers = [...(out.providers ?? []), ...(manifest?.providers ?? []).map((p) => p.id)];
  return { ...out, hooks: [...(contributes?.hooks ?? [])] } as DeclaredContributions;
}

/** What a manifest lists for keel's own plugins to read, paths made absolute; undefined when it lists nothing. */
export function contentPaths(
  dir: string,
  manifest: Partial<Pick<KeelManifest, "skills" | "prompts" | "content">> | undefined,
): PluginContentPaths | undefined {
  // An inline plugin's (the test kit's) manifest has only what its author gave.
  const skills = manifest?.skills ?? [];
  const prompts = manifest?.prompts ?? [];
  if (!manifest || (!manifest.content && skills.length + prompts.length === 0)) return undefined;
  const at = (path: string) => (isAbsolute(path) ? path : resolve(dir, path));
  const fileOrInline = (item: string | Record<string, unknown>) => (typeof item === "string" ? at(item) : item);
  const c = manifest.content;
  return {
    ...(c?.format && { format: c.format }),
    skills: skills.map(at),
    prompts: prompts.map(at),
    commands: (c?.commands ?? []).map(at),
    agents: (c?.agents ?? []).map(at),
    hooks: (c?.hooks ?? []).map(fileOrInline),
    mcpServers: (c?.mcpServers ?? []).map(fileOrInline),
    instructions: (c?.instructions ?? []).map(at),
    deny: [...(c?.deny ?? [])],
    unhonoured: [...(c?.unhonoured ?? [])],
  };
}

/** `{ content }` for a plugin's info when its manifest lists any, else nothing (most plugins). */
export function withContent(
  dir: string,
  manifest: Partial<Pick<KeelManifest, "skills" | "prompts" | "content">> | undefined,
): { content?: PluginContentPaths } {
  const content = contentPaths(dir, manifest);
  return content ? { content } : {};
}
