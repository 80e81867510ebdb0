/**
 * Fixture plugin packages for the installer's tests: a folder with a keel manifest and a tool that answers
 * with the plugin's version, packed as npm packs (a gzipped tar with a `package/` top folder).
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

/** The tool the fixture registers: `<name>_version` (non-word characters as `_`), answering its version. */
export const toolName = (name: string) => `${name.replace(/\W/g, "_")}_version`.replace(/^_+/, "");

export function writePackage(dir: string, p: FixturePackage): string {
  mkdirSync(dir, { recursive: true });
  const version = p.version ?? "1.0.0";
  const tool = toolName(p.name);
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
      contributes: { tools: [tool], hooks: p.hooks ?? [] },
      ...(p.dependsOn ? { dependsOn: p.dependsOn } : {}),
    },
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  const taps = (p.hooks ?? []).map((h) => `    api.hooks.on(${JSON.stringify(h)}, (v) => v);`).join("\n");
  writeFileSync(
    join(dir, "index.ts"),
    `import { definePlugin, defineTool, z } from "@keel/extensions-api";
export default definePlugin({
  activate(api) {
${taps}
    api.registerTool(defineTool({
      name: ${JSON.stringify(tool)}, description: "says the version", readOnly: true,
      parameters: z.object({}),
      async execute() { return { content: [{ type: "text", text: ${JSON.stringify(`${p.name}@${version}`)} }] }; },
    }));
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

/** Packs `dir` into `file` (a gzipped tar with one top folder, as npm packs) and returns the tarball's sha512 integrity. */
export async function packTarball(dir: string, file: string): Promise<string> {
  await tar.c({ gzip: true, file, cwd: join(dir, ".."), portable: true, prefix: "" }, [dir.split("/").pop()!]);
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}
