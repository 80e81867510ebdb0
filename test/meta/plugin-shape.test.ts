// Every first-party plugin has the same shape, so any of them is a template for a third party's
// (CONTRIBUTING.md, "How to add a plugin"): the manifest, registration-only index.ts, settings.ts when it has
// settings, a README, and capabilities that cover what its own code does.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { settingsKeyOf, type PluginDefinition } from "@keel/extensions-api";

const plugins = fileURLToPath(new URL("../../plugins", import.meta.url));
const folders = readdirSync(plugins, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** What the code of a plugin's src/ does by itself, as the capabilities that must cover it. */
function neededCapabilities(dir: string): string[] {
  const code = sources(join(dir, "src"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  const needs: [RegExp, RegExp, string][] = [
    [/from "node:fs(\/promises)?"/, /^fs:(read|write)$/, "fs:read or fs:write (it imports node:fs)"],
    [/from "node:child_process"/, /^exec$/, "exec (it imports node:child_process)"],
    [/from "@keel\/provider-kit"/, /^net:/, "net:<host> (it makes HTTP requests through provider-kit)"],
    [/process\.env\b/, /^env:/, "env:<NAME> (it reads process.env)"],
  ];
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).keel as { capabilities?: string[] };
  return needs
    .filter(([uses, cap]) => uses.test(code) && !(manifest.capabilities ?? []).some((c) => cap.test(c)))
    .map(([, , what]) => what);
}

describe.each(folders)("plugins/%s", (folder) => {
  const dir = join(plugins, folder);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    keel: { entry: string; settingsKey?: string; capabilities?: string[] };
  };

  it("is @keel/plugin-<folder>, with the settings key derived from its name and a README", () => {
    expect(pkg.name).toBe(`@keel/plugin-${folder}`);
    expect(pkg.keel.settingsKey).toBeUndefined();
    expect(settingsKeyOf(pkg)).toBe(folder);
    expect(pkg.keel.entry).toBe("./src/index.ts");
    expect(existsSync(join(dir, "README.md"))).toBe(true);
  });

  it("lists capabilities that cover what its own code does", () => {
    expect(pkg.keel.capabilities).toBeInstanceOf(Array);
    expect(neededCapabilities(dir)).toEqual([]);
  });

  it("registers in src/index.ts and keeps its settings schema in src/settings.ts", async () => {
    const index = readFileSync(join(dir, "src/index.ts"), "utf8");
    expect(index).not.toMatch(/^(export )?(async )?(function|class) /m);
    const definition = ((await import(join(dir, "src/index.ts"))) as { default: PluginDefinition }).default;
    expect(existsSync(join(dir, "src/settings.ts"))).toBe(definition.settings !== undefined);
  });
});
