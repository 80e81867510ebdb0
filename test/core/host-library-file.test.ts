/**
 * The host finds @keel/provider-kit's compiled files (core/src/host/host-modules.ts) from the package's own
 * `exports`, without Node's resolver for them (which loads Node's ES module resolver); the answer must be the file
 * Node's resolver gives, for every subpath the package exports.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { hostLibraryFile } from "../../core/src/host/host-modules.ts";

const require = createRequire(import.meta.url);
const kit = JSON.parse(readFileSync(require.resolve("@keel/provider-kit/package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};

it("names the file Node's resolver names for each subpath @keel/provider-kit exports", () => {
  const specifiers = Object.keys(kit.exports)
    .filter((key) => key !== "./package.json")
    .map((key) => `@keel/provider-kit${key.slice(1)}`);
  expect(specifiers).toContain("@keel/provider-kit/mock-llm");
  for (const specifier of specifiers) {
    const file = hostLibraryFile(specifier);
    expect(file.endsWith(".cjs"), file).toBe(true);
    expect(file).toBe(require.resolve(specifier));
  }
});
