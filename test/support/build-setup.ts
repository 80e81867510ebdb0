/**
 * Vitest global setup: brings the build up to date before any test runs. Unit tests import the sources (see
 * vitest.config.ts), but e2e tests run the real `keel` binary, which runs the bundle in core/dist; without this
 * a `npx vitest run` after an edit would test the binary as it was at the last build.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}
