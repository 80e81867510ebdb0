// The web UI's build (`npm run build` runs it through scripts/build-web.mjs; never at run time): Preact's JSX,
// one small entry and the marketplace as a chunk of its own, into web/dist, which keel serve reads at start.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", modulePreload: { polyfill: false } },
});
