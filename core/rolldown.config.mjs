// Bundles the CLI (kernel, host, extensions-api, zod, commander, semver, tapable, mitt) into one module:
// loading one file instead of ~200 is most of keel's startup time. jiti stays external and is imported only
// when a plugin is first loaded.
import { builtinModules } from "node:module";
import { defineConfig } from "rolldown";

export default defineConfig({
  input: "core/dist/cli/main.js",
  platform: "node",
  external: ["jiti", ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
  output: { file: "core/dist/keel-cli.mjs", format: "esm", minify: false },
  logLevel: "warn",
});
