/**
 * Fixture plugin packages for the installer's tests: a folder with a keel manifest and a CLI command that
 * prints the plugin's name and version (`keel <name>-version`), so a test sees which version runs.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tar from "tar";

export interface FixturePackage {
  name: string;
  version?: string;
  capabilities?: string[];
  hooks?: string[];
  dependencies?: Record<string, string>;
  dependsOn?: Record<string, string>;
  apiVersion?: string;
  scripts?: Record<string, string>;
  /** Extra files, path → content. */
  files?: Record<string, string>;
}

/** The CLI command the fixture registers: `<name>-version`, scope and slash dropped (`@a/b` → `a-b-version`). */
export const commandName = (name: string) => `${name.replace(/^@/, "").replace(/\//g, "-")}-version`;

export function writePackage(dir: string, p: FixturePackage): string {
  mkdirSync(dir, { recursive: true });
  const version = p.version ?? "1.0.0";
  const command = commandName(p.name);
  const pkg = {
    name: p.name,
    version,
    type: "module",
    ...(p.scripts ? { scripts: p.scripts } : {}),
    ...(p.dependencies ? { dependencies: p.dependencies } : {}),
    peerDependencies: { "@keel/extensions-api": "^1.0.0" },
    keel: {
      apiVersion: p.apiVersion ?? "^1.0.0",
      entry: "./index.ts",
      capabilities: p.capabilities ?? [],
      contributes: { cliCommands: [command], hooks: p.hooks ?? [] },
      ...(p.dependsOn ? { dependsOn: p.dependsOn } : {}),
    },
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  const taps = (p.hooks ?? []).map((h) => `    api.hooks.tap(${JSON.stringify(h)}, () => undefined);`).join("\n");
  writeFileSync(
    join(dir, "index.ts"),
    `import { definePlugin } from "@keel/extensions-api";
export default definePlugin({
  activate(api) {
${taps}
    api.registerCliCommand({
      name: ${JSON.stringify(command)},
      description: "says which version runs",
      run(_args, _options, context) {
        context.stdout(${JSON.stringify(`${p.name}@${version}
`)});
      },
    });
  },
});
`,
  );
  for (const [path, content] of Object.entries(p.files ?? {})) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/**
 * Packs `dir` into `file` (a gzipped tar with one top folder, as npm packs) and returns the tarball's sha512 integrity.
 */
export async function packTarball(dir: string, file: string): Promise<string> {
  await tar.c({ gzip: true, file, cwd: join(dir, ".."), portable: true, prefix: "" }, [dir.split("/").pop()!]);
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}
