/**
 * The kernel's line: it depends on the contract, tapable and mitt and on nothing else of keel (not the host,
 * not a plugin, not a library), its layers never reach upward (bus → hooks → loop), and it stays small enough
 * to read in one sitting.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const kernel = fileURLToPath(new URL("..", import.meta.url));
/** What the kernel may import besides its own files and Node's builtins. */
const ALLOWED = ["@keel/extensions-api", "tapable", "mitt"];
/** A layer may import its own files and those of the layers before it; index.ts and trace.ts sit outside. */
const LAYERS = ["bus", "hooks", "loop"];
const LINE_BUDGET = 2500;
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

const layerOf = (src: string, file: string) => LAYERS.indexOf(relative(src, file).split(sep)[0]!);

/** Each import under `src` that crosses the kernel's line or reaches up a layer, as `file: specifier (why)`. */
function boundaryProblems(src: string): string[] {
  return sources(src).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(SPECIFIER)].flatMap(([, spec]) => {
      const where = `${relative(src, file)}: ${spec}`;
      if (spec!.startsWith("node:")) return [];
      if (!spec!.startsWith(".")) {
        const known = ALLOWED.some((name) => spec === name || spec!.startsWith(`${name}/`));
        return known ? [] : [`${where} (the kernel imports only ${ALLOWED.join(", ")})`];
      }
      const target = join(dirname(file), spec!);
      if (relative(src, target).startsWith("..")) return [`${where} (outside the kernel)`];
      const from = layerOf(src, file);
      const to = layerOf(src, target);
      return from >= 0 && to > from ? [`${where} (${LAYERS[from]} reaches up into ${LAYERS[to]})`] : [];
    }),
  );
}

it("imports only the contract, tapable, mitt and Node's builtins, and no layer reaches upward", () => {
  expect(boundaryProblems(join(kernel, "src"))).toEqual([]);
});

it("depends on the contract, tapable and mitt, and on no other package", () => {
  const pkg = JSON.parse(readFileSync(join(kernel, "package.json"), "utf8")) as Record<string, object | undefined>;
  const deps = ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((k) => Object.keys(pkg[k] ?? {}));
  expect(deps.sort()).toEqual([...ALLOWED].sort());
});

it(`holds the kernel within ${LINE_BUDGET} lines`, () => {
  const lines = sources(join(kernel, "src")).reduce(
    (sum, file) => sum + readFileSync(file, "utf8").split("\n").length - 1,
    0,
  );
  expect(lines).toBeLessThanOrEqual(LINE_BUDGET);
});

it("names an import of the host, a library, a path outside the kernel and a layer reaching upward", () => {
  const src = mkdtempSync(join(tmpdir(), "keel-kernel-"));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  };
  write("bus/a.ts", 'import { b } from "../hooks/b.js";\nimport { setMaxListeners } from "node:events";\n');
  write("hooks/b.ts", 'import { z } from "@keel/extensions-api";\nimport tapable from "tapable";\n');
  write("loop/c.ts", 'import { d } from "@keel/core";\nimport("@keel/provider-kit");\nimport "../../x.js";\n');
  write("loop/d.ts", 'import { b } from "../hooks/b.js";\nimport { e } from "./e.js";\n');
  expect(boundaryProblems(src)).toEqual([
    `bus${sep}a.ts: ../hooks/b.js (bus reaches up into hooks)`,
    `loop${sep}c.ts: @keel/core (the kernel imports only @keel/extensions-api, tapable, mitt)`,
    `loop${sep}c.ts: @keel/provider-kit (the kernel imports only @keel/extensions-api, tapable, mitt)`,
    `loop${sep}c.ts: ../../x.js (outside the kernel)`,
  ]);
  rmSync(src, { recursive: true, force: true });
});
