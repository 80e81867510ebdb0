/**
 * The host's admission rule for a registered tool: `parameters` made by `lazySchema` is admitted without being
 * built (a tool offered later, such as `process`, builds it when first offered or called); a tool without a zod
 * schema is refused.
 */
import { expect, it } from "vitest";
import { defineTool, z, type Tool } from "@keel/extensions-api";
import { isLazySchema, lazySchema } from "@keel/extensions-api/lazy-schema";
import { ADMISSIONS } from "../../core/src/host/registries.ts";

function laterTool(): { tool: Tool; builds: () => number } {
  let builds = 0;
  const parameters = lazySchema(() => (builds++, z.object({ id: z.string() })));
  const tool = defineTool({ name: "later", description: "l", parameters, execute: async () => ({ content: "ok" }) });
  return { tool, builds: () => builds };
}

it("admits a tool whose parameters are a lazy schema without building it", () => {
  const { tool, builds } = laterTool();
  expect(isLazySchema(tool.parameters)).toBe(true);
  expect(ADMISSIONS.tools.problem?.(tool)).toBeUndefined();
  expect(builds()).toBe(0);
  expect(tool.parameters.safeParse({ id: 1 }).success).toBe(false);
  expect(builds()).toBe(1);
});

it("refuses a tool whose parameters are not a zod schema", () => {
  const { tool } = laterTool();
  expect(isLazySchema(z.object({}))).toBe(false);
  expect(ADMISSIONS.tools.problem?.({ ...tool, parameters: {} as Tool["parameters"] })).toMatch(
    /needs a zod `parameters` schema/,
  );
});
