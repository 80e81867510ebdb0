#!/usr/bin/env node
// Writes the generated documents (scripts/docs/generate.js lists them); `--check` writes nothing and exits 1
// naming each stale one. Runs against the build: `npm run docs` builds first.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { generatedDocs, staleDocs } from "./docs/generate.js";

const root = new URL("../", import.meta.url);
const docs = await generatedDocs(root);
const read = (/** @type {string} */ path) =>
  existsSync(new URL(path, root)) ? readFileSync(new URL(path, root), "utf8") : undefined;
const stale = staleDocs(docs, read);
if (process.argv.includes("--check")) {
  if (stale.length > 0) {
    console.error(
      `Generated documents are out of date: ${stale.join(", ")}. Run \`npm run docs\` and commit the result.`,
    );
    process.exit(1);
  }
} else {
  for (const doc of docs.filter((d) => stale.includes(d.path))) writeFileSync(new URL(doc.path, root), doc.text);
  console.log(stale.length > 0 ? `wrote ${stale.join(", ")}` : "generated documents are up to date");
}
