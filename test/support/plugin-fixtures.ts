/**
 * Writes plugin packages into temp folders, for tests of the host: a package.json with a keel manifest and
 * an entry file with the given source.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FixturePlugin {
  name: string;
  version?: string;
  /** The `keel` manifest; `apiVersion` and `entry` default to ^1.0.0 and ./index.ts. */
  keel?: Record<string, unknown>;
  /** Source of the entry file; omit to write no entry. */
  source?: string;
  /** Replaces the whole package.json text (for malformed manifests). */
  rawPackageJson?: string;
  /** Other files of the package, by path in its folder (a built entry, its node_modules). */
  files?: Record<string, string>;
}

export function tempDir(prefix = "keel-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes the plugin under `root/<safe name>` and returns its folder. */
export function writePlugin(root: string, plugin: FixturePlugin): string {
  const dir = join(root, plugin.name.replace(/[@/]/g, "_"));
  mkdirSync(dir, { recursive: true });
  const keel = { apiVersion: "^1.0.0", entry: "./index.ts", ...plugin.keel };
  writeFileSync(
    join(dir, "package.json"),
    plugin.rawPackageJson ??
      JSON.stringify({ name: plugin.name, version: plugin.version ?? "1.0.0", type: "module", keel }, null, 2),
  );
  if (plugin.source !== undefined) writeFileSync(join(dir, String(keel.entry)), plugin.source);
  for (const [path, text] of Object.entries(plugin.files ?? {})) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A plugin that registers a read-only `echo` tool returning its input text. */
export const ECHO_TOOL_SOURCE = `
import { definePlugin, defineTool, z } from "@keel/extensions-api";
export default definePlugin({
  activate(api) {
    api.registerTool(defineTool({
      name: "echo", description: "Echo text back.", readOnly: true,
      parameters: z.object({ text: z.string() }),
      async execute(input) { return { content: "echo: " + input.text }; },
    }));
  },
});
`;

/** acme-echo@1.2.0, a package with the echo tool: what the registry tests publish and install by name. */
export const ACME_ECHO: FixturePlugin = {
  name: "acme-echo",
  version: "1.2.0",
  keel: { contributes: { tools: ["echo"] } },
  source: ECHO_TOOL_SOURCE,
};
