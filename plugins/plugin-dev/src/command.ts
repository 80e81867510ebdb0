/**
 * The `plugin` CLI command: `plugin new <name> --kind <kind>`, `plugin validate [dir]`, `plugin pack [dir]`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { API_VERSION, type CliCommandSpec, type CliContext } from "@keel/extensions-api";
import { isKind, KIND_NAMES } from "./kinds.ts";
import { newPlugin } from "./new.ts";
import { packPlugin, type Packed } from "./pack.ts";
import { validatePlugin } from "./validate.ts";

const USAGE =
  `Use \`plugin new <name> --kind ${KIND_NAMES.join("|")}\`, ` + "`plugin validate [dir]` or `plugin pack [dir]`.";

export const pluginCommand: CliCommandSpec = {
  name: "plugin",
  description: "write a new plugin package, check one (validate), or pack one with its sha512 and catalog entry",
  arguments: "<action> [target]",
  options: [
    { name: "kind", type: "string", valueName: "<kind>", description: `plugin new: ${KIND_NAMES.join(", ")}` },
    { name: "out", type: "string", valueName: "<dir>", description: "plugin pack: where the tarball goes" },
    { name: "json", type: "boolean", description: "plugin pack: print the result as JSON" },
  ],
  async run([action, target], options, context) {
    if (action === "new") return create(target, options.kind, context);
    const dir = resolve(context.cwd, target ?? ".");
    if (action === "validate") return validate(dir, context);
    if (action === "pack") return pack(dir, options, context);
    context.stderr(`plugin: unknown action ${JSON.stringify(action ?? "")}. ${USAGE}\n`);
    return 2;
  },
};

function create(name: string | undefined, kind: unknown, context: CliContext): number {
  if (name === undefined || !isKind(kind)) {
    context.stderr(`plugin new: name the package and its kind (--kind ${KIND_NAMES.join("|")}). ${USAGE}\n`);
    return 2;
  }
  const testing = contractVersion(context, "@keel/testing");
  if (!testing) {
    context.stderr("plugin new: keel's test kit (@keel/testing) is not installed beside keel; the test needs it.\n");
    return 2;
  }
  const made = newPlugin(name, kind, context.cwd, { extensionsApi: API_VERSION, testing });
  if ("problem" in made) {
    context.stderr(`plugin new: ${made.problem}\n`);
    return 2;
  }
  context.stdout(`Wrote ${made.dir}: cd there, \`npm install\`, \`npm test\`, then \`keel plugin validate\`.\n`);
  return 0;
}

async function validate(dir: string, context: CliContext): Promise<number> {
  const { name, version, problems } = await validatePlugin(dir, context);
  if (problems.length === 0) {
    context.stdout(`${name}@${version} is valid.\n`);
    return 0;
  }
  context.stderr(`${name}${version ? `@${version}` : ""} has ${problems.length} problem(s):\n`);
  for (const problem of problems) context.stderr(`- ${problem}\n`);
  return 1;
}

async function pack(dir: string, options: Record<string, unknown>, context: CliContext): Promise<number> {
  const code = await validate(dir, { ...context, stdout: () => undefined });
  if (code !== 0) return code;
  const out = resolve(context.cwd, typeof options.out === "string" ? options.out : ".");
  let packed: Packed;
  try {
    packed = await packPlugin(dir, out);
  } catch (error) {
    const e = error as { message?: string; stderr?: string };
    context.stderr(
      `plugin pack: could not pack ${dir} into ${out}: ${(e.stderr || e.message || String(error)).trim()}\n`,
    );
    return 1;
  }
  if (options.json) context.stdout(`${JSON.stringify(packed, null, 2)}\n`);
  else
    context.stdout(
      `${packed.tarball}\n${packed.integrity}\n\nCatalog entry (marketplace.json ` +
        `"plugins"):\n${JSON.stringify(packed.catalogEntry, null, 2)}\n`,
    );
  return 0;
}

/** The version of a contract package installed beside the running distribution, or undefined. */
function contractVersion(context: CliContext, name: string): string | undefined {
  try {
    const file = createRequire(context.distributionFile).resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
}
