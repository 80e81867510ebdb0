/**
 * Settings keys nobody reads: a top-level key that is neither the kernel's nor any discovered plugin's
 * section (its `settingsKey` or a section it `reads`), and a key inside a plugin's section that its schema does
 * not have. zod drops unknown keys silently, so without this a typo (`"fiels"`) would just do nothing.
 */
import { closest, distance } from "fastest-levenshtein";
import type { z } from "@keel/extensions-api";
import { CoreSettingsSchema } from "./core-settings.js";
import { isPlainObject, type NamedLayer } from "./layers.js";

/** ` Did you mean "x"?` when a known key is a small edit away, else "". */
export function didYouMean(key: string, known: readonly string[]): string {
  if (known.length === 0) return "";
  const best = closest(key, [...known]);
  return distance(key, best) <= Math.max(2, Math.floor(key.length / 3)) ? ` Did you mean "${best}"?` : "";
}

/**
 * Warnings, per layer, for top-level keys that are neither the kernel's nor in `pluginKeys` (every discovered
 * plugin's section, loaded or not), and for keys inside the kernel's own sections that it does not have.
 */
export function unknownSettingsKeys(layers: readonly NamedLayer[], pluginKeys: readonly string[]): string[] {
  const core = CoreSettingsSchema.shape as Record<string, z.ZodType>;
  const known = [...Object.keys(core), ...pluginKeys];
  const warnings: string[] = [];
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.value ?? {})) {
      if (!known.includes(key))
        warnings.push(
          `Setting "${key}" in ${layer.name} is read by neither keel nor any installed plugin, so ` +
            `it has no effect.${didYouMean(key, known)}`,
        );
      else if (core[key]) warnings.push(...sectionKeyWarnings(core[key], key, value, layer.name, "keel"));
    }
  }
  return warnings;
}

/** Warnings for keys in one layer's `section` (named `key`) that `schema`, its reader's, does not have. */
export function sectionKeyWarnings(
  schema: z.ZodType,
  key: string,
  section: unknown,
  layer: string,
  reader: string,
): string[] {
  return unknownSectionKeys(schema, section).map(({ path, known }) => {
    const name = [key, ...path].join(".");
    return (
      `Setting "${name}" in ${layer} is not one ${reader} knows, so it has no ` +
      `effect.${didYouMean(path.at(-1)!, known)}`
    );
  });
}

/** The paths (from the section's root) of keys in `value` that `schema` has no place for. */
function unknownSectionKeys(schema: z.ZodType, value: unknown): { path: string[]; known: string[] }[] {
  const object = objectOf(schema);
  if (!object || !isPlainObject(value)) return [];
  const out: { path: string[]; known: string[] }[] = [];
  const known = Object.keys(object.shape);
  for (const [key, inner] of Object.entries(value)) {
    const field = object.shape[key];
    if (!field) {
      if (object.closed) out.push({ path: [key], known });
      continue;
    }
    for (const deeper of unknownSectionKeys(field, inner))
      out.push({ path: [key, ...deeper.path], known: deeper.known });
  }
  return out;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
};

/**
 * The object schema under wrappers (default, optional, pipe, …), and whether it drops unknown keys (a
 * `.loose()` object keeps them on purpose; a `.strict()` one already rejects them).
 */
function objectOf(schema: z.ZodType): { shape: Record<string, z.ZodType>; closed: boolean } | undefined {
  let def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  for (let depth = 0; depth < 10 && !def.shape; depth++) {
    const next = def.innerType ?? def.in;
    if (!next) return undefined;
    def = (next as unknown as { _zod: { def: Def } })._zod.def;
  }
  if (def.type !== "object" || !def.shape) return undefined;
  return { shape: def.shape, closed: def.catchall === undefined };
}
