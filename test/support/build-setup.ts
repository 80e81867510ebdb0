/**
 * Vitest global setup: brings the build up to date before any test runs, and again before each rerun in watch
 * mode. Unit tests import the sources (see vitest.config.ts), but e2e tests run the real `keel` binary, which
 * runs the bundle in core/dist, and every test that loads a first-party plugin from its folder (in-process
 * through the test kit, or through the binary) runs that plugin's built entry, dist/index.cjs
 * (scripts/build-plugins.mjs); without this a `npx vitest run` after an edit would test them as they were at the
 * last build.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

function build(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}

export default function setup(project: TestProject): void {
  build();
  project.onTestsRerun(() => build());
}
