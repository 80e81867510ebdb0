/**
 * Vitest global setup: brings the build up to date before any test runs, and again before each rerun in watch
 * mode. Unit tests import the sources (see vitest.config.ts), but e2e tests run the real `keel` binary, which
 * runs the bundle in core/dist, and every test that loads a first-party plugin from its folder (in-process
 * through the test kit, or through the binary) runs that plugin's built entry, dist/index.cjs
 * (scripts/build-plugins.mjs); without this a `npx vitest run` after an edit would test them as they were at the
 * last build.
 *
 * It also gives the run a temp folder of its own, removed when the run ends: the workers (and every process they
 * start: keel, sshd, podman, chromium...) inherit it as TMPDIR, so nothing a test or a program it ran put in the
 * temp folder outlives the run, whether or not that test cleaned up (issue 30: ~500 folders, 280 MB a run).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

function build(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}

/** Mount points under `dir` (a container's root a test left mounted), deepest first. */
function mountsUnder(dir: string): string[] {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4]?.replace(/\\040/g, " "))
    .filter((point): point is string => point !== undefined && point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
}

function removeRunTemp(dir: string): void {
  for (const point of mountsUnder(dir)) {
    try {
      execFileSync("umount", ["-l", point], { stdio: "ignore" });
    } catch {
      // not ours to unmount (no privilege): rmSync below says what it could not remove
    }
  }
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    process.stderr.write(`keel tests: could not remove the run's temp folder ${dir}: ${(error as Error).message}\n`);
  }
}

export default function setup(project: TestProject): () => void {
  build();
  project.onTestsRerun(() => build());
  // 1777 like /tmp: the sandbox tests run keel as an unprivileged user, which must reach folders in it.
  const runTemp = mkdtempSync(join(tmpdir(), "keel-tests-"));
  chmodSync(runTemp, 0o1777);
  process.env.TMPDIR = runTemp;
  return () => removeRunTemp(runTemp);
}
