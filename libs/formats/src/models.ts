/**
 * A model as a command, skill or agent file names it, resolved to one of the session's: `inherit` (or none) is
 * the session's own; `provider/model` is that; Claude Code's aliases (`opus`, `sonnet`, `haiku`) go through the
 * `modelAliases` setting, else to the newest model of the session's provider whose id holds the alias; a bare
 * id (`claude-sonnet-4-5`) is the session's provider's model of that id, or another provider's.
 */

/** Claude Code's model aliases. */
export const MODEL_ALIASES = ["opus", "sonnet", "haiku"] as const;

export interface ModelChoice {
  provider: string;
  model: string;
}

export interface ModelCatalog {
  /** The `modelAliases` setting: alias → `provider/model`. */
  aliases: Readonly<Record<string, string>>;
  /** Every model the session's providers serve. */
  models: readonly { provider: string; id: string }[];
  /** The session's provider, preferred for an alias or a bare id. */
  provider?: string;
}

/** The choice, undefined for the session's own, or a problem saying what to set. */
export function resolveModel(
  written: string | undefined,
  catalog: ModelCatalog,
): { choice?: ModelChoice; problem?: string } {
  if (written === undefined || written === "inherit") return {};
  const mapped = catalog.aliases[written];
  if (mapped !== undefined) {
    const choice = split(mapped);
    return choice ? { choice } : { problem: `modelAliases.${written} must be "provider/model"` };
  }
  const direct = split(written);
  if (direct) return { choice: direct };
  const own = catalog.models.filter((m) => m.provider === catalog.provider);
  if ((MODEL_ALIASES as readonly string[]).includes(written)) {
    const newest = own
      .filter((m) => m.id.includes(written))
      .map((m) => m.id)
      .sort()
      .at(-1);
    if (newest) return { choice: { provider: catalog.provider!, model: newest } };
    return {
      problem:
        `no model of ${catalog.provider ?? "the session's provider"} matches "${written}"; ` +
        `name one in the modelAliases setting ({ "modelAliases": { "${written}": "provider/model" } })`,
    };
  }
  const exact = own.find((m) => m.id === written) ?? catalog.models.find((m) => m.id === written);
  if (exact) return { choice: { provider: exact.provider, model: exact.id } };
  return { problem: `no provider serves a model "${written}"` };
}

function split(text: string): ModelChoice | undefined {
  const at = text.indexOf("/");
  if (at <= 0 || at === text.length - 1) return undefined;
  return { provider: text.slice(0, at), model: text.slice(at + 1) };
}

/** The `modelAliases` setting as written: alias → `provider/model`, anything else left out. */
export function modelAliases(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
