// Every first-party plugin has the same shape, so any of them is a template for a third party's
// (CONTRIBUTING.md, "How to add a plugin"): the manifest, registration-only index.ts, settings.ts when it has
// settings, a README, and capabilities that cover what its own code does.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { settingsKeyOf, type PluginDefinition } from "@keel/extensions-api";
import { missingCapabilities } from "../../plugins/plugin-dev/src/capabilities.ts";

const plugins = fileURLToPath(new URL("../../plugins", import.meta.url));
const folders = readdirSync(plugins, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe.each(folders)("plugins/%s", (folder) => {
  const dir = join(plugins, folder);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    keel: { entry: string; settingsKey?: string; capabilities?: string[] };
    files?: string[];
  };

  it("is @keel/plugin-<folder>, with the settings key derived from its name and a README", () => {
    expect(pkg.name).toBe(`@keel/plugin-${folder}`);
    expect(pkg.keel.settingsKey).toBeUndefined();
    expect(settingsKeyOf(pkg)).toBe(folder);
    // Built from src/index.ts by scripts/build-plugins.mjs; npm would leave the git-ignored dist/ out of a pack
    // unless `files` names it.
    expect(pkg.keel.entry).toBe("./dist/index.cjs");
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", "src"]));
    expect(existsSync(join(dir, "README.md"))).toBe(true);
  });

  it("declares its CLI commands in full, so that --help lists them before the plugin loads", () => {
    const declared = (pkg.keel as { contributes?: { cliCommands?: unknown[] } }).contributes?.cliCommands ?? [];
    expect(declared.filter((entry) => typeof entry === "string")).toEqual([]);
  });

  it("lists capabilities that cover what its own code does", () => {
    expect(pkg.keel.capabilities).toBeInstanceOf(Array);
    expect(missingCapabilities(dir, pkg.keel.capabilities ?? [])).toEqual([]);
  });

  it("registers in src/index.ts and keeps its settings schema in src/settings.ts", async () => {
    const index = readFileSync(join(dir, "src/index.ts"), "utf8");
    expect(index).not.toMatch(/^(export )?(async )?(function|class) /m);
    const definition = ((await import(join(dir, "src/index.ts"))) as { default: PluginDefinition }).default;
    expect(existsSync(join(dir, "src/settings.ts"))).toBe(definition.settings !== undefined);
  });
});

it("packs a first-party plugin with its built entry and chunks", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: join(plugins, "mcp"),
    encoding: "utf8",
  });
  const [{ files }] = JSON.parse(out) as [{ files: { path: string }[] }];
  const paths = files.map((f) => f.path);
  expect(paths).toEqual(expect.arrayContaining(["dist/index.cjs", "dist/create-hub.cjs", "src/index.ts"]));
});
