// Every generated document: its path and the text it must have. `npm run docs` writes them; `npm test` checks
// that none is stale (scripts/docs.js --check), so a document cannot drift from what it is generated from.
import { existsSync, readFileSync } from "node:fs";
import { contributions } from "./contributions.js";
import { formatTables } from "./formats.js";
import { hooksAndEvents } from "./hooks-and-events.js";
import { pluginSettings, readmeSettings, settingsTable } from "./plugin-settings.js";
import { fillRegion } from "./regions.js";

/** @typedef {{ path: string; text: string }} GeneratedDoc */

/**
 * The generated files, relative to the repository root, with their fresh text.
 * @param {URL} root the repository folder
 * @returns {Promise<GeneratedDoc[]>}
 */
export async function generatedDocs(root) {
  const current = (/** @type {string} */ path) =>
    existsSync(new URL(path, root)) ? readFileSync(new URL(path, root), "utf8") : "";
  const plugins = await pluginSettings(root);
  const readmes = plugins.map((p) => {
    const path = `plugins/${p.folder}/README.md`;
    const fresh = (/** @type {string} */ region) => `# ${p.name}\n\n${p.description}\n\n## Settings\n\n${region}\n`;
    const text = current(path);
    const appended = (/** @type {string} */ region) =>
      text ? `${text.trimEnd()}\n\n## Settings\n\n${region}\n` : fresh(region);
    return { path, text: fillRegion(text, "settings", readmeSettings(p), appended) };
  });
  const settings = fillRegion(current("docs/settings.md"), "plugin-settings", settingsTable(plugins), () => {
    throw new Error("docs/settings.md has no generated:plugin-settings region");
  });
  const tables = await formatTables(root);
  const missing = (/** @type {string} */ name) => () => {
    throw new Error(`docs/formats.md has no generated:${name} region`);
  };
  const withEvents = fillRegion(current("docs/formats.md"), "hook-events", tables.hookEvents, missing("hook-events"));
  const formats = fillRegion(withEvents, "tool-names", tables.toolNames, missing("tool-names"));
  return [
    { path: "docs/hooks-and-events.md", text: await hooksAndEvents(root) },
    { path: "docs/formats.md", text: formats },
    { path: "docs/contributions.md", text: contributions() },
    { path: "docs/settings.md", text: settings },
    ...readmes,
  ];
}

/**
 * The paths whose current text (`read(path)`, undefined when missing) differs from the fresh one.
 * @param {GeneratedDoc[]} docs
 * @param {(path: string) => string | undefined} read
 * @returns {string[]}
 */
export function staleDocs(docs, read) {
  return docs.filter((doc) => read(doc.path) !== doc.text).map((doc) => doc.path);
}
