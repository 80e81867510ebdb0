// Bundles the CLI (kernel, host, extensions-api, zod, commander, semver, tapable, mitt) into one CommonJS
// file: loading one file instead of ~200 is most of keel's startup, and CommonJS is what `launch.ts` can run
// with a V8 code cache on Node 20. jiti stays external and is required only when a plugin is first loaded.
// `launch.ts` itself is built to CommonJS too (dist/launch.cjs, what bin/keel.cjs requires), so a start never
// initialises Node's ES module loader.
import { readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join } from "node:path";
import { defineConfig } from "rolldown";
import { lazyBuiltins } from "../scripts/lazy-builtins.mjs";
import { lazyCommonJs } from "../scripts/lazy-commonjs.mjs";

const external = ["jiti", ...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const ZOD_LOCALES = join(dirname(createRequire(import.meta.url).resolve("zod/v4/locales")), "index.js");
const LAZY_LOCALES = "\0keel:zod-locales";

/**
 * zod's locales without ~270 KB of other languages' error messages in the bundle: `en` (which zod configures
 * when it loads) stays in, every other locale becomes a function that requires zod's own CommonJS file of it
 * (whose `module.exports` is the locale) on first call. The names are read from zod's index here, so plugins
 * (which get the host's zod object) still find every `z.locales.xx()`; test/e2e/zod-locales.test.ts compares
 * them and their messages with zod's.
 * @returns {import("rolldown").Plugin}
 */
function lazyZodLocales() {
  return {
    name: "keel-lazy-zod-locales",
    resolveId(source, importer) {
      if (importer && join(dirname(importer), source) === ZOD_LOCALES) return LAZY_LOCALES;
      return undefined;
    },
    load(id) {
      if (id !== LAZY_LOCALES) return undefined;
      const locales = [...readFileSync(ZOD_LOCALES, "utf8").matchAll(/default as (\w+) } from "\.\/([\w-]+)\.js"/g)];
      return [
        `import { createRequire } from "node:module";`,
        `export { default as en } from ${JSON.stringify(join(dirname(ZOD_LOCALES), "en.js"))};`,
        `const locale = (file) => createRequire(import.meta.url)(\`zod/v4/locales/\${file}.cjs\`)();`,
        ...locales
          .filter(([, name]) => name !== "en")
          .map(([, name, file]) => `export const ${name} = () => locale(${JSON.stringify(file)});`),
      ].join("\n");
    },
  };
}

export default defineConfig([
  {
    input: "core/dist/cli/main.js",
    platform: "node",
    external,
    plugins: [lazyZodLocales(), lazyBuiltins(), lazyCommonJs()],
    // ASCII (other characters escaped) so V8 holds the source, which it keeps for lazy compilation, in one byte
    // per character instead of two; comments other than licences are dropped. Not minified: stack traces from
    // users stay readable.
    output: {
      file: "core/dist/keel-cli.cjs",
      format: "cjs",
      minify: false,
      charset: "ascii",
      comments: { legal: true, annotation: false, jsdoc: false },
    },
    logLevel: "warn",
  },
  {
    // A confined plugin's host process (core/src/confine/host-main.ts): the loader and the contract, no CLI.
    input: "core/dist/confine/host-main.js",
    platform: "node",
    external,
    plugins: [lazyZodLocales(), lazyBuiltins(), lazyCommonJs()],
    output: { file: "core/dist/plugin-host.cjs", format: "cjs", minify: false, charset: "ascii" },
    logLevel: "warn",
  },
  {
    input: "core/dist/launch.js",
    platform: "node",
    external,
    plugins: [lazyBuiltins()],
    output: { file: "core/dist/launch.cjs", format: "cjs", minify: false },
    logLevel: "warn",
  },
]);
