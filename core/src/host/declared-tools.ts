/**
 * Tools declared in full in a lazy plugin's manifest. The model sees the declaration before the plugin is
 * loaded; the first call activates the plugin (`onTool:<name>`) and runs the tool it registered under that
 * name, validating the input again against that tool's own schema.
 */
import { lazyTool, z, type Tool, type ToolDeclarationManifest } from "@keel/extensions-api";
import { presetJsonSchema, validate } from "@keel/kernel";

/** `registered` activates the plugin and resolves its tool, or rejects saying why there is none. */
export function declaredTool(declaration: ToolDeclarationManifest, registered: () => Promise<Tool>): Tool {
  const { name, label, description, readOnly } = declaration;
  const parameters = z.fromJSONSchema(declaration.parameters as Parameters<typeof z.fromJSONSchema>[0]);
  const offered = lazyTool({ name, label, description, readOnly, parameters }, async () => {
    const tool = await registered();
    return {
      ...tool,
      execute(input, ctx) {
        const checked = validate(tool, input);
        if (!checked.ok)
          throw new Error(
            `Invalid arguments for "${name}": ${checked.message}. Nothing was run. Fix the ` +
              `arguments and call it again.`,
          );
        return tool.execute(checked.input, ctx);
      },
    };
  });
  const { $schema: _ignored, ...schema } = declaration.parameters;
  presetJsonSchema(offered, schema);
  return offered;
}
