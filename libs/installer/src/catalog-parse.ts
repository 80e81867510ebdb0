/** A catalog's JSON text as a `Catalog`, in keel's format or Claude Code's. */
import { CatalogSchema, type Catalog } from "@keel/extensions-api/catalog";
import { RefusedError } from "./check.ts";
import { fromClaudeCode, isClaudeCodeCatalog } from "./claude-code.ts";

/** Parses a catalog's JSON text, in keel's format or Claude Code's; throws naming `where` and the keys at fault. */
export function parseCatalog(text: string, where: string): Catalog {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RefusedError(`${where} is not JSON (${(error as Error).message})`);
  }
  const input = isClaudeCodeCatalog(raw) ? fromClaudeCode(raw as Record<string, unknown>) : raw;
  const parsed = CatalogSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
    throw new RefusedError(`${where} is not a valid catalog: ${issues}`);
  }
  return parsed.data;
}
