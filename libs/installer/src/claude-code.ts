/**
 * Reading Claude Code's `marketplace.json` as a keel catalog: the name, the owner, `renames`, and per plugin its
 * name, description, version, keywords and tags, its component fields (kept as `manifest`, written into the
 * installed plugin: docs/formats.md) and its source in every form Claude Code takes:
 *
 * - a relative path (`"./plugins/x"`), resolved against the catalog (catalogSource);
 * - `{ "source": "github", "repo", "ref"?, "sha"? }` and `{ "source": "url" | "git", "url", "ref"?, "sha"? }` →
 *   `git:<url>#<sha or ref>`: a `sha` pins the commit whatever the ref says, so the pin is never dropped;
 * - `{ "source": "git-subdir", "url", "path", "ref"?, "sha"? }` → `git:<url>#<sha or ref>::path:<path>`;
 * - `{ "source": "npm", "package", "version"? }` → `npm:<package>[@<version>]`.
 *
 * Any other form becomes `unsupported:<why>`, which `resolveName` refuses with that reason.
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
  strict?: unknown;
}

/** The fields of an entry that are the plugin's manifest (components and what describes them), not the catalog's. */
const MANIFEST_FIELDS = [
  "commands",
  "agents",
  "skills",
  "hooks",
  "mcpServers",
  "outputStyles",
  "lspServers",
  "userConfig",
  "monitors",
  "channels",
  "dependencies",
];

/** Whether `raw` is in Claude Code's format (a plugin source that is an object, its `metadata` block, `renames`). */
export function isClaudeCodeCatalog(raw: unknown): boolean {
  if (typeof raw !== "object" || raw === null) return false;
  const r = raw as { metadata?: unknown; plugins?: unknown; renames?: unknown };
  if (r.metadata !== undefined || r.renames !== undefined) return true;
  return (
    Array.isArray(r.plugins) &&
    r.plugins.some((p) => {
      const entry = p as ClaudeCodePlugin;
      return typeof entry?.source === "object" || entry?.strict !== undefined;
    })
  );
}

const text = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : undefined);
const SHA = /^[0-9a-f]{40}$/;

/** One source as a keel source, or `unsupported:<why>`. */
export function sourceOf(source: unknown): string {
  if (typeof source === "string") return source;
  const s = (source ?? {}) as Record<string, unknown>;
  const sha = text(s.sha);
  if (sha !== undefined && !SHA.test(sha)) return `unsupported:its sha "${sha}" is not a full 40-hex commit`;
  const pin = sha ?? text(s.ref);
  const at = pin ? `#${pin}` : "";
  switch (s.source) {
    case "github":
      if (!text(s.repo) || !/^[\w.-]+\/[\w.-]+$/.test(s.repo as string))
        return 'unsupported:a github source needs "repo": "owner/name"';
      return `git:https://github.com/${s.repo}.git${at}`;
    case "url":
    case "git":
      return text(s.url) ? `git:${s.url}${at}` : `unsupported:a ${s.source} source needs "url"`;
    case "git-subdir": {
      const path = text(s.path)?.replace(/^\.\//, "").replace(/\/$/, "");
      if (!text(s.url) || !path) return 'unsupported:a git-subdir source needs "url" and "path"';
      if (path.split("/").includes("..") || path.startsWith("/"))
        return `unsupported:its path "${s.path}" leaves the repository`;
      return `git:${s.url}#${pin ? `${pin}::` : ""}path:${path}`;
    }
    case "npm":
      if (!text(s.package)) return 'unsupported:an npm source needs "package"';
      return `npm:${s.package}${text(s.version) ? `@${s.version}` : ""}`;
    default:
      return `unsupported:its source type ${JSON.stringify(s.source ?? null)} is not one keel installs from`;
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

/** The manifest fields an entry declares itself, when any. */
function manifestOf(p: ClaudeCodePlugin): Record<string, unknown> | undefined {
  const fields = Object.entries(p).filter(([key]) => MANIFEST_FIELDS.includes(key));
  return fields.length > 0 || p.strict === false ? Object.fromEntries(fields) : undefined;
}

/** The catalog in keel's shape; unknown keys are dropped, and the schema then checks what is left. */
export function fromClaudeCode(raw: Record<string, unknown>): CatalogInput {
  const owner = (raw.owner ?? {}) as { name?: string; email?: string; url?: string };
  const metadata = (raw.metadata ?? {}) as { description?: string };
  const renames = raw.renames as Record<string, string> | undefined;
  return {
    name: raw.name as string,
    owner: { name: owner.name ?? "unknown", email: owner.email, url: owner.url },
    description: metadata.description ?? (raw.description as string | undefined),
    ...(renames && typeof renames === "object" && { renames }),
    plugins: (Array.isArray(raw.plugins) ? (raw.plugins as ClaudeCodePlugin[]) : []).map((p) => {
      const manifest = manifestOf(p);
      return {
        name: p.name as string,
        description: typeof p.description === "string" ? p.description : undefined,
        source: sourceOf(p.source),
        versions: typeof p.version === "string" ? [{ version: p.version }] : [],
        keywords: [...strings(p.keywords), ...strings(p.tags)],
        ...(manifest && { manifest }),
        ...(p.strict === false && { strict: false }),
      };
    }),
  };
}
