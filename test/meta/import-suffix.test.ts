// The import-suffix rule (CONTRIBUTING.md): a relative specifier names the file that is there when the code
// runs. In the packages tsc builds to dist (the root tsconfig.json's references) that is the emitted `.js`; all
// other TypeScript runs from source (plugins and provider-kit through jiti, tests through vitest), so it names
// the `.ts` file — for jiti also the fast path, since each `./x.js` makes it probe ~20 candidates.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const tsconfig = JSON.parse(readFileSync(join(repo, "tsconfig.json"), "utf8")) as { references: { path: string }[] };
const BUILT = tsconfig.references.map((r) => `${r.path.replace(/^\.\//, "")}/src`);
const FROM_SOURCE = ["plugins", "libs", "test", "examples", "kernel/test"];
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name === "dist") return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? tsFiles(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each relative specifier under `root` that breaks the rule, as `file:line: specifier (why)`. */
function violations(root: string): string[] {
  const built = (file: string) => BUILT.some((d) => file.startsWith(join(root, d)));
  const files = [...new Set([...BUILT, ...FROM_SOURCE].flatMap((d) => tsFiles(join(root, d))))];
  return files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(SPECIFIER)].flatMap((match) => {
      const spec = match[1]!;
      const before = text.slice(0, match.index).split("\n");
      const line = before.length;
      if (/^\s*(\*|\/\/)/.test(before.at(-1)!)) return []; // an example in a comment, for plugin authors
      const where = `${relative(root, file)}:${line}: ${spec}`;
      if (built(file)) return spec.endsWith(".ts") ? [`${where} (a built package imports the emitted .js)`] : [];
      const target = join(dirname(file), spec);
      const namesMissingJs = spec.endsWith(".js") && !existsSync(target) && existsSync(target.replace(/\.js$/, ".ts"));
      return namesMissingJs ? [`${where} (runs from source: name the .ts file)`] : [];
    });
  });
}

it("names the file that exists when the code runs: .js in built packages, .ts in code run from source", () => {
  expect(violations(repo)).toEqual([]);
});

it("names each import that breaks the rule", () => {
  const root = mkdtempSync(join(tmpdir(), "keel-suffix-"));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("core/src/a.ts", 'import { b } from "./b.ts";\nexport const a = b;\n');
  write("core/src/b.ts", "export const b = 1;\n");
  write("plugins/p/src/a.ts", '// see "./b.js"\nexport { b } from "./b.js";\nconst c = await import("./c.js");\n');
  write("plugins/p/src/b.ts", "export const b = 1;\n");
  write("plugins/p/src/c.js", "export const c = 1;\n");
  expect(violations(root)).toEqual([
    "core/src/a.ts:1: ./b.ts (a built package imports the emitted .js)",
    "plugins/p/src/a.ts:2: ./b.js (runs from source: name the .ts file)",
  ]);
  rmSync(root, { recursive: true, force: true });
});
