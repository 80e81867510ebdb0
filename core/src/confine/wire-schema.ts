/**
 * zod schemas across the boundary: a tool's `parameters` cross as JSON Schema and become a zod schema again on
 * keel's side, so the loop validates a confined tool's calls as it validates any other and the model is sent the
 * JSON Schema the plugin's schema produced.
 */
import { z } from "@keel/extensions-api";

export function isSchema(value: object): value is z.ZodType {
  return "_zod" in value && "safeParse" in value;
}

export function marshalSchema(schema: z.ZodType): { $k: "schema"; json: unknown } {
  let json: unknown;
  try {
    json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" });
  } catch {
    json = {};
  }
  return { $k: "schema", json };
}

export function unmarshalSchema(json: unknown): z.ZodType {
  try {
    return z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // A schema zod cannot rebuild validates nothing here; the plugin's own schema still holds in its process.
    return z.any();
  }
}
