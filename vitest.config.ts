import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests run against the sources, never a stale build: every `@keel/*` import (and each subpath export) resolves
// to the `src/*.ts` file its package's `exports` names for `dist/*.js`. The real binary (e2e tests) runs the
// build, which the global setup brings up to date first.
const root = fileURLToPath(new URL(".", import.meta.url));
function sourceAliases(dir: string): { find: string | RegExp; replacement: string }[] {
  const pkg = JSON.parse(readFileSync(`${root}${dir}/package.json`, "utf8")) as {
    name: string;
    exports: Record<string, string | { default: string }>;
  };
  return Object.entries(pkg.exports)
    .filter(([key]) => key !== "./package.json")
    .map(([key, target]) => {
      const file = (typeof target === "string" ? target : target.default)
        .replace(/^\.\/dist\//, "./src/")
        .replace(/\.js$/, ".ts");
      const spec = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
      return { find: new RegExp(`^${spec.replace(/[/.]/g, "\\$&")}$`), replacement: `${root}${dir}/${file.slice(2)}` };
    });
}

export default defineConfig({
  resolve: {
    alias: [
      ...sourceAliases("extensions-api"),
      ...sourceAliases("core"),
      ...sourceAliases("libs/testing"),
      ...sourceAliases("libs/provider-kit"),
      ...sourceAliases("libs/rpc-client"),
      ...sourceAliases("libs/rpc-server"),
      ...sourceAliases("libs/installer"),
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "plugins/*/test/**/*.test.ts", "libs/*/test/**/*.test.ts"],
    globalSetup: ["test/support/build-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
