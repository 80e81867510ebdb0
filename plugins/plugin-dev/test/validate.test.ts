/**
 * `keel plugin validate` through the real binary: a package with several mistakes gets every one of them
 * listed, each saying what to fix, and a non-zero exit.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";
import { tempDir, writePlugin } from "../../../test/support/plugin-fixtures.ts";

describe("keel plugin validate", () => {
  it("lists every problem of a package and exits 1", async () => {
    const dir = writePlugin(tempDir(), {
      name: "acme-broken",
      keel: { apiVersion: "^1.0.0", contributes: { tools: ["greet", "farewell"], hooks: ["input"] } },
      source: `import { readFileSync } from "node:fs";
import { definePlugin, z } from "@keel/extensions-api";
export default definePlugin({
  activate(api) {
    void readFileSync;
    const execute = async () => ({ content: [] });
    api.registerTool({ name: "greet", description: "Greets.", parameters: z.object({}), execute });
    api.registerTool({ name: "wave", description: "Waves.", parameters: z.object({}), execute });
  },
});
`,
    });
    const pkg = JSON.parse((await import("node:fs")).readFileSync(join(dir, "package.json"), "utf8"));
    pkg.scripts = { postinstall: "node build.js" };
    pkg.dependencies = { "native-thing": "1.0.0" };
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
    mkdirSync(join(dir, "node_modules", "native-thing"), { recursive: true });
    writeFileSync(
      join(dir, "node_modules", "native-thing", "package.json"),
      '{"name":"native-thing","version":"1.0.0"}',
    );
    writeFileSync(join(dir, "node_modules", "native-thing", "binding.gyp"), "{}");
    mkdirSync(join(dir, "src"));
    writeFileSync(
      join(dir, "src", "io.ts"),
      'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
    );

    const run = await runKeel(["plugin", "validate", dir], keelEnv());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("- "));
    expect(run.stderr).toMatch(/^acme-broken@1\.0\.0 has 6 problem\(s\):/);
    expect(lines).toEqual([
      expect.stringContaining('registered tool "wave" that its manifest does not list in keel.contributes.tools'),
      expect.stringContaining("declares the input hook in keel.contributes.hooks but did not tap it"),
      expect.stringContaining('declares tool "farewell" in keel.contributes.tools but did not register it'),
      expect.stringContaining("package.json has install scripts (postinstall); keel never runs them"),
      expect.stringContaining("dependency native-thing has install scripts (install (binding.gyp))"),
      expect.stringContaining("needs a capability keel.capabilities does not declare: fs:read or fs:write"),
    ]);
  });

  it.each([
    [{ apiVersion: "^9.0.0" }, "it needs @keel/extensions-api ^9.0.0, but this keel provides 1.0.0"],
    [{ apiVersion: "^1.0.0", contributes: { tools: [5] } }, '"keel.contributes.tools.0": Invalid input'],
    [{ apiVersion: "^1.0.0" }, "must export default definePlugin({ activate(api) { ... } })"],
  ])("names what the host refuses: %j", async (keel, message) => {
    const dir = writePlugin(tempDir(), { name: "acme-bad", keel, source: "export default {};\n" });
    const run = await runKeel(["plugin", "validate", dir], keelEnv());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^acme-bad@1\.0\.0 has 1 problem\(s\):\n- /);
    expect(run.stderr).toContain(message);
  });

  it("says a package that has no problem is valid", async () => {
    const dir = writePlugin(tempDir(), {
      name: "acme-fine",
      keel: { apiVersion: "^1.0.0", contributes: { hooks: ["input"] } },
      source:
        'import { definePlugin } from "@keel/extensions-api";\nexport default definePlugin({ ' +
        'activate(api) { api.hooks.tap("input", () => undefined); } });\n',
    });
    const run = await runKeel(["plugin", "validate", dir], keelEnv());
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("acme-fine@1.0.0 is valid.\n");
    expect(run.code).toBe(0);
  });
});
