/**
 * Reading Claude Code's `marketplace.json` as a keel catalog. What maps: the name, the owner, and per plugin
 * its name, description, version, keywords and tags, and a source given as a git URL (`{ "source": "url" }`,
 * `{ "source": "git" }`) or a GitHub repository (`{ "source": "github", "repo" }`), each becoming `git:<url>`.
 * What does not: relative folder sources (`"./plugins/x"`) become a path relative to the catalog, and Claude
 * Code's own plugin contents (commands, agents, hooks, MCP servers as Claude Code runs them) are not keel
 * plugins: such an entry installs only if its folder is a keel plugin (a package.json with a `keel` field).
 */
import type { z } from "@keel/extensions-api";
import type { CatalogSchema } from "@keel/extensions-api/catalog";

type CatalogInput = z.input<typeof CatalogSchema>;

interface ClaudeCodePlugin {
  name?: unknown;
  description?: unknown;
  version?: unknown;
  keywords?: unknown;
  tags?: unknown;
  source?: unknown;
}

/** Whether `raw` is in Claude Code's format (a plugin source that is an object, or its `metadata` block). */
export function isClaudeCodeCatalog(raw: unknown): boolean {
  if (typeof raw !== "object" || raw === null) return false;
  const r = raw as { metadata?: unknown; plugins?: unknown };
  if (r.metadata !== undefined) return true;
  return Array.isArray(r.plugins) && r.plugins.some((p) => typeof (p as ClaudeCodePlugin)?.source === "object");
}

function sourceOf(source: unknown): string {
  if (typeof source === "string") return source;
  const s = (source ?? {}) as { source?: string; repo?: string; url?: string; ref?: string };
  const ref = s.ref ? `#${s.ref}` : "";
  if (s.source === "github" && s.repo) return `git:https://github.com/${s.repo}.git${ref}`;
  if ((s.source === "url" || s.source === "git") && s.url) return `git:${s.url}${ref}`;
  return `unsupported:${JSON.stringify(source)}`;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

/** The catalog in keel's shape; unknown keys are dropped, and the schema then checks what is left. */
export function fromClaudeCode(raw: Record<string, unknown>): CatalogInput {
  const owner = (raw.owner ?? {}) as { name?: string; email?: string; url?: string };
  const metadata = (raw.metadata ?? {}) as { description?: string };
  return {
    name: raw.name as string,
    owner: { name: owner.name ?? "unknown", email: owner.email, url: owner.url },
    description: metadata.description ?? (raw.description as string | undefined),
    plugins: (Array.isArray(raw.plugins) ? (raw.plugins as ClaudeCodePlugin[]) : []).map((p) => ({
      name: p.name as string,
      description: typeof p.description === "string" ? p.description : undefined,
      source: sourceOf(p.source),
      versions: typeof p.version === "string" ? [{ version: p.version }] : [],
      keywords: [...strings(p.keywords), ...strings(p.tags)],
    })),
  };
}
