// Each first-party plugin's settings, from the zod schema its definition hands the host (`definePlugin({
// settings })`), each field described by its `.describe()` text: the settings table of the plugin's README.md
// and the plugin table of docs/settings.md. The schema is the one source; both documents are generated.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createJiti } from "jiti";
import { settingsKeyOf, z } from "@keel/extensions-api";

/**
 * @typedef {{ type?: string | string[]; enum?: unknown[]; anyOf?: JsonSchema[]; items?: JsonSchema;
 *   properties?: Record<string, JsonSchema>; additionalProperties?: JsonSchema | boolean; default?: unknown;
 *   description?: string; required?: string[] }} JsonSchema
 * @typedef {{ key: string; type: string; default: string; description: string }} SettingRow
 * @typedef {{ folder: string; name: string; description: string; settingsKey: string; reads: string[];
 *   rows: SettingRow[] | undefined }} PluginSettings
 */

/** @param {JsonSchema} s @returns {string} */
function typeOf(s) {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (s.anyOf) return s.anyOf.map(typeOf).join(" \\| ");
  if (s.type === "array") return `${s.items && Object.keys(s.items).length > 0 ? typeOf(s.items) : "unknown"}[]`;
  if (s.type === "object" && s.properties) return `{ ${Object.keys(s.properties).join(", ")} }`;
  if (s.type === "object" && typeof s.additionalProperties === "object")
    return `{ [name]: ${typeOf(s.additionalProperties)} }`;
  if (s.type === "integer") return "integer";
  return Array.isArray(s.type) ? s.type.join(" \\| ") : (s.type ?? "unknown");
}

/**
 * One row per key, and per key of an object inside it (`allowedRoots[].path`).
 * @param {JsonSchema} schema @param {string} prefix @returns {SettingRow[]}
 */
function rowsOf(schema, prefix = "") {
  return Object.entries(schema.properties ?? {}).flatMap(([name, s]) => {
    const key = `${prefix}${name}`;
    const row = {
      key,
      type: typeOf(s),
      default: "default" in s ? JSON.stringify(s.default) : "—",
      description: s.description ?? "",
    };
    const inner =
      s.type === "array" && s.items?.properties
        ? rowsOf(s.items, `${key}[].`)
        : s.properties
          ? rowsOf(s, `${key}.`)
          : [];
    return [row, ...inner];
  });
}

/**
 * The rows of a settings schema: its keys as a settings file writes them, with defaults and `.describe()` texts.
 * @param {import("@keel/extensions-api").z.ZodType} schema @returns {SettingRow[]}
 */
export function settingsRows(schema) {
  return rowsOf(/** @type {JsonSchema} */ (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })));
}

/**
 * Every plugin under `plugins/`, in folder order, with its settings rows (undefined: it has no settings).
 * @param {URL} root @returns {Promise<PluginSettings[]>}
 */
export async function pluginSettings(root) {
  const jiti = createJiti(new URL("scripts/docs/", root).href);
  const folders = readdirSync(new URL("plugins/", root), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    folders.map(async (folder) => {
      const pkg = JSON.parse(readFileSync(new URL(`plugins/${folder}/package.json`, root), "utf8"));
      const file = new URL(`plugins/${folder}/${pkg.keel.entry}`, root).pathname;
      // A built entry (dist/index.cjs) is required as it is; a TypeScript one goes through jiti.
      const entry = /** @type {{ default: import("@keel/extensions-api").PluginDefinition }} */ (
        file.endsWith(".cjs") ? createRequire(import.meta.url)(file) : await jiti.import(file)
      );
      const schema = entry.default.settings;
      const rows = schema ? settingsRows(schema) : undefined;
      return {
        folder,
        name: pkg.name,
        description: pkg.description ?? "",
        settingsKey: settingsKeyOf(pkg),
        reads: pkg.keel.reads ?? [],
        rows,
      };
    }),
  );
}

/** The settings part of a plugin's README.md. @param {PluginSettings} p @returns {string} */
export function readmeSettings(p) {
  const reads =
    p.reads.length > 0 ? ` It also reads ${p.reads.map((k) => `\`${k}\``).join(", ")}, shared with other plugins.` : "";
  if (!p.rows) return `This plugin has no settings section of its own.${reads}`;
  return [
    `Section \`"${p.settingsKey}"\` of settings.json (\`docs/settings.md\` says where settings files live).${reads}`,
    "",
    "| key | type | default | what it does |",
    "|---|---|---|---|",
    ...p.rows.map((r) => `| \`${r.key}\` | \`${r.type}\` | \`${r.default}\` | ${r.description} |`),
  ].join("\n");
}

/** The plugin table of docs/settings.md. @param {PluginSettings[]} plugins @returns {string} */
export function settingsTable(plugins) {
  return [
    "| section | plugin | keys (default) |",
    "|---|---|---|",
    ...plugins
      .filter((p) => p.rows)
      .map((p) => {
        const keys = (p.rows ?? [])
          .filter((r) => !r.key.includes("."))
          .map((r) => `\`${r.key}\`${r.default === "—" ? "" : ` (\`${r.default}\`)`}`);
        return `| \`${p.settingsKey}\` | [${p.folder}](../plugins/${p.folder}/README.md) | ${keys.join(", ")} |`;
      }),
  ].join("\n");
}
