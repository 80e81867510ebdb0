/**
 * semver, bundled into the CLI, runs its modules on first use (scripts/lazy-commonjs.mjs): a start whose plugins
 * all declare `^X.Y.Z` and no `dependsOn` never needs it, and the binary still decides every other range with it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { keelEnv, KEEL_BIN, runKeel } from "../support/keel-cli.ts";
import { writePlugin } from "../support/plugin-fixtures.ts";

it("imports semver into the bundle as a proxy made on first read", () => {
  const bundle = readFileSync(join(KEEL_BIN, "..", "..", "core", "dist", "keel-cli.cjs"), "utf8");
  const imports = [...bundle.matchAll(/^var import_(satisfies|valid) = (.*);$/gm)];
  expect(imports.map(([, name]) => name)).toEqual(["satisfies", "valid"]);
  for (const [, name, value] of imports) expect(value).toBe(`__keelLazy(() => __toESM(require_${name}(), 1))`);
});

it("decides an apiVersion range and a dependsOn range with semver through the binary", async () => {
  const env = keelEnv();
  const plugin = (name: string, keel: Record<string, unknown>) =>
    writePlugin(env.cwd, {
      name,
      keel: { ...keel, entry: "./index.js", contributes: { flags: [name] } },
      source:
        "export default { activate(api) { " +
        `api.registerFlag({ name: "${name}", type: "boolean", description: "x" }) } };`,
    });
  const paths = [
    plugin("in-range", { apiVersion: ">=1.0.0 <2.0.0" }),
    plugin("too-new", { apiVersion: ">=2.0.0" }),
    plugin("needs-in-range", { apiVersion: "^1.0.0", dependsOn: { "in-range": "^1.0.0 || ^2.0.0" } }),
    plugin("needs-v2", { apiVersion: "^1.0.0", dependsOn: { "in-range": "^2.0.0" } }),
  ];
  const run = await runKeel(["plugins", "--json", ...paths.flatMap((path) => ["--plugin", path])], env);
  expect(run.code, run.stderr).toBe(0);
  const states = Object.fromEntries(
    (JSON.parse(run.stdout) as { name: string; state: string }[]).map((p) => [p.name, p.state]),
  );
  expect(states).toMatchObject({ "in-range": "active", "too-new": "failed", "needs-in-range": "active" });
  expect(states["needs-v2"]).not.toBe("active");
  expect(run.stderr).toContain("it needs @keel/extensions-api >=2.0.0, but this keel provides 1.0.0");
  expect(run.stderr).toContain("it needs in-range ^2.0.0, but 1.0.0 is installed");
});
