/**
 * Reading a plugin's package.json and its `keel` manifest without running any of its code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CONTRIBUTION_KINDS,
  CONTRIBUTIONS,
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
 * Activation events: declared, or derived from what the plugin contributes. A plugin contributing a kind that
 * cannot be lazy (`CONTRIBUTIONS`), a hook, a tool not declared in full, or a `prefix*` command starts with the
 * host; otherwise it waits for any of its contributions to be used.
 */
export function activationEvents(manifest: KeelManifest): string[] {
  if (manifest.activation && manifest.activation.length > 0) return manifest.activation;
  const c = manifest.contributes;
  const eager =
    c.hooks.length > 0 ||
    c.tools.some((t) => typeof t === "string") ||
    c.commands.some((name) => name.endsWith("*")) ||
    CONTRIBUTION_KINDS.some((kind) => !CONTRIBUTIONS[kind].lazy && c[kind].length > 0);
  if (eager) return ["onStartup"];
  const lazy = [
    ...CONTRIBUTION_KINDS.flatMap((kind) =>
      (c[kind] as (string | { name: string })[]).map(
        (entry) => `${CONTRIBUTIONS[kind].event}:${contributionName(entry)}`,
      ),
    ),
    // Providers declared in data. (A plugin serving provider APIs is activated by activateProviderApiServers.)
    ...manifest.providers.map((p) => `${CONTRIBUTIONS.providers.event}:${p.id}`),
  ];
  // A plugin that declares nothing cannot be activated on demand, so it starts with the host.
  return lazy.length > 0 ? lazy : ["onStartup"];
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
