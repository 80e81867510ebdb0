// Bundles the CLI (kernel, host, extensions-api, zod, commander, semver, tapable, mitt) into one CommonJS
// file: loading one file instead of ~200 is most of keel's startup, and CommonJS is what `launch.ts` can run
// with a V8 code cache on Node 20. jiti stays external and is required only when a plugin is first loaded.
import { builtinModules } from "node:module";
import { defineConfig } from "rolldown";

export default defineConfig({
  input: "core/dist/cli/main.js",
  platform: "node",
  external: ["jiti", ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
  output: { file: "core/dist/keel-cli.cjs", format: "cjs", minify: false },
  logLevel: "warn",
});
