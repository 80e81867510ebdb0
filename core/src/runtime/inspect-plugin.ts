/**
 * A plugin folder checked by the host itself (`keel plugin validate`): loaded alone in a scratch keel (temp
 * home and workspace, no distribution, no managed settings), activated whatever its activation events, then
 * disposed. Every problem the host reports about it comes back: the manifest schema, `apiVersion`,
 * `dependsOn`, the entry loading, settings, activation, and what `activate` registered against `contributes`.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KeelRuntime } from "./runtime.js";

export async function inspectPlugin(dir: string): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "keel-inspect-"));
  const problems: string[] = [];
  try {
    const cwd = join(root, "workspace");
    const keelHome = join(root, "home");
    mkdirSync(cwd);
    mkdirSync(keelHome);
    const runtime = await KeelRuntime.create(
      { cwd, keelHome, pluginPaths: [dir], managedSettingsFile: join(root, "managed-settings.json") },
      (rt) => {
        rt.bus.on("plugin_error", (e) => void problems.push(`${e.phase}: ${e.message}`));
        rt.bus.on("plugin_warning", (e) => void (e.plugin && problems.push(e.message)));
      },
    );
    try {
      const plugin = runtime.listPlugins().find((p) => p.source === "cli");
      if (plugin?.state === "lazy") await runtime.host.activateNow([plugin.name]);
    } finally {
      await runtime.shutdown();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return problems;
}
