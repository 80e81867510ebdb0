/**
 * A yes-or-don't-know check of a value against a zod schema, for the events a decoder parses by the dozen per
 * reply. zod's parse builds a result, an issue list and a stripped copy of every object; run a few hundred times
 * a session, as keel's functions mostly are, it stays in V8's interpreter and cost ~25 µs a stream chunk. The
 * check reads the same schema (its definition, so the schema stays the one catalog of an event's shape) and only
 * answers whether the value already fits: `true` means zod would accept it unchanged but for the unknown keys
 * it strips, so the value itself can stand in for zod's output; `false` means "ask zod", which then accepts or
 * words the error exactly as before. Only the kinds the decoders use are read; any other (a refinement, a
 * default, a transform, a strict object, a string check) makes the whole schema uncheckable, and it is parsed
 * by zod every time.
 */
import type { z } from "@keel/extensions-api";

/** Whether a value fits; see the module comment. */
export type FastCheck = (value: unknown) => boolean;

/** The parts of a zod 4 definition this module reads (`schema._zod.def`). */
interface Def {
  type: string;
  coerce?: boolean;
  checks?: readonly { _zod: { def: { check?: string; format?: string } } }[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
  element?: Schema;
  options?: readonly Schema[];
}
type Schema = { _zod: { def: Def } };

const compiled = new WeakMap<object, FastCheck | null>();

/** The check for `schema`, or undefined when it uses a kind the check does not read. Made once per schema. */
export function fastCheck(schema: z.ZodType): FastCheck | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema as unknown as Schema) ?? null;
    compiled.set(schema, check);
  }
  return check ?? undefined;
}

const isString: FastCheck = (v) => typeof v === "string";
// zod's number refuses NaN and ±Infinity (JSON.parse makes Infinity of `1e400`); `.int()` means a safe integer.
const isNumber: FastCheck = (v) => typeof v === "number" && Number.isFinite(v);
const isBoolean: FastCheck = (v) => typeof v === "boolean";
const isAnything: FastCheck = () => true;

function compile(schema: Schema): FastCheck | undefined {
  const def = schema._zod.def;
  const checks = def.checks ?? [];
  if (def.coerce) return undefined;
  if (def.type === "number" && checks.length === 1) {
    const only = checks[0]!._zod.def;
    return only.check === "number_format" && only.format === "safeint" ? Number.isSafeInteger : undefined;
  }
  if (checks.length > 0) return undefined;
  switch (def.type) {
    case "string":
      return isString;
    case "boolean":
      return isBoolean;
    case "number":
      return isNumber;
    case "unknown":
    case "any":
      return isAnything;
    case "optional": {
      const inner = compile(def.innerType!);
      return inner && ((v) => v === undefined || inner(v));
    }
    case "nullable": {
      const inner = compile(def.innerType!);
      return inner && ((v) => v === null || inner(v));
    }
    case "array": {
      const element = compile(def.element!);
      return element && ((v) => Array.isArray(v) && v.every(element));
    }
    case "union": {
      const options = def.options!.map(compile);
      if (options.some((o) => o === undefined)) return undefined;
      const all = options as FastCheck[];
      return (v) => all.some((o) => o(v));
    }
    case "object":
      return objectCheck(def);
    default:
      return undefined;
  }
}

/**
 * An object with its known keys checked; unknown keys are what zod strips (or, passthrough, keeps). A missing
 * key passes only for an `.optional()` field: zod refuses it for any other, `z.unknown()` included.
 */
function objectCheck(def: Def): FastCheck | undefined {
  if (def.catchall !== undefined && def.catchall._zod.def.type !== "unknown") return undefined;
  const keys = Object.keys(def.shape!);
  const fields: FastCheck[] = [];
  const optional: boolean[] = [];
  for (const key of keys) {
    const field = compile(def.shape![key]!);
    if (!field) return undefined;
    fields.push(field);
    optional.push(def.shape![key]!._zod.def.type === "optional");
  }
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
    const record = v as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const field = record[keys[i]!];
      if (field === undefined ? !optional[i] : !fields[i]!(field)) return false;
    }
    return true;
  };
}
