import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests run against the sources, never a stale build: every `@keel/*` import (and each subpath export) resolves
// to the `src/*.ts` file its package's `exports` names for `dist/*.js`. The real binary (e2e tests) runs the
// build, which the global setup brings up to date first. The packages are the root package.json's workspaces
// (`dir` or `dir/*`), so a new library needs no line here.
const root = fileURLToPath(new URL(".", import.meta.url));
type Exports = Record<string, string | { default: string }>;
const readJson = (file: string) => JSON.parse(readFileSync(`${root}${file}`, "utf8"));

function workspaces(): string[] {
  return (readJson("package.json") as { workspaces: string[] }).workspaces.flatMap((pattern) =>
    pattern.endsWith("/*")
      ? readdirSync(`${root}${pattern.slice(0, -2)}`).map((name) => `${pattern.slice(0, -1)}${name}`)
      : [pattern],
  );
}

function sourceAliases(dir: string): { find: string | RegExp; replacement: string }[] {
  if (!existsSync(`${root}${dir}/package.json`)) return [];
  const pkg = readJson(`${dir}/package.json`) as { name: string; exports?: Exports };
  return Object.entries(pkg.exports ?? {})
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
    alias: workspaces().flatMap(sourceAliases),
  },
  test: {
    include: [
      "test/**/*.test.ts",
      "kernel/test/**/*.test.ts",
      "plugins/*/test/**/*.test.ts",
      "libs/*/test/**/*.test.ts",
    ],
    globalSetup: ["test/support/build-setup.ts"],
    // Guards against a hang, not a measure: on a loaded 2-core CI machine a test that starts twenty keel
    // processes (batch, BullMQ) or an sshd and a session takes well over 30 s, and failed there for nothing.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // expect.poll waits on a condition; 1 s (vitest's default) is a timing assertion on a loaded machine.
    expect: { poll: { timeout: 60_000 } },
    pool: "forks",
  },
});
