// Every generated document: its path and the text it must have. `npm run docs` writes them; `npm test` checks
// that none is stale (scripts/docs.js --check), so a document cannot drift from what it is generated from.
import { contributions } from "./contributions.js";
import { hooksAndEvents } from "./hooks-and-events.js";

/** @typedef {{ path: string; text: string }} GeneratedDoc */

/**
 * The generated files, relative to the repository root, with their fresh text.
 * @param {URL} root the repository folder
 * @returns {Promise<GeneratedDoc[]>}
 */
export async function generatedDocs(root) {
  return [
    { path: "docs/hooks-and-events.md", text: await hooksAndEvents(root) },
    { path: "docs/contributions.md", text: contributions() },
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
