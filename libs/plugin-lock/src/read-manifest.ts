/**
 * Reading a plugin's package.json and its `keel` manifest without running any of its code: the host reads it at
 * load, the installer before installing, so both see one manifest the same way.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CONTRIBUTION_KINDS,
  contributionName,
  PluginPackageSchema,
  type DeclaredContributions,
  type KeelManifest,
  type PluginPackage,
} from "@keel/extensions-api";

export type ManifestResult = { ok: true; pkg: PluginPackage } | { ok: false; name: string; error: string };

export function readManifest(dir: string): ManifestResult {
  const file = join(dir, "package.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "has no package.json" : `has an unreadable package.json (${(error as Error).message})`;
    return { ok: false, name: dir, error: `${dir} ${why}` };
  }
  const name = typeof (raw as { name?: unknown })?.name === "string" ? (raw as { name: string }).name : dir;
  if (typeof raw !== "object" || raw === null || !("keel" in raw)) {
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
