/**
 * `keel list`: the plugins installed in your scope and the project's (or only the project's, `--project`),
 * from their keel.lock, with the state the host gave each this run (active, lazy, disabled, failed and why).
 */
import { join } from "node:path";
import type { CliContext, PluginInfo } from "@keel/extensions-api";
import { scopeLock, type Scope } from "@keel/installer";
import { guarded } from "../options.ts";
import { scopeOf } from "../scope.ts";

export function run(_args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const scopes: Scope[] = options.project
      ? [scopeOf(options, context)]
      : [
          { kind: "user", root: context.keelHome },
          { kind: "project", root: join(context.cwd, ".keel") },
        ];
    const states = new Map<string, PluginInfo>(context.listPlugins().map((p) => [p.dir, p]));
    const rows = scopes.flatMap((scope) =>
      Object.entries(scopeLock(scope).plugins).map(([name, entry]) => {
        const info = states.get(join(scope.root, "plugins", name));
        return {
          name,
          version: entry.version,
          scope: scope.kind,
          source: entry.source,
          state: info?.state ?? (scope.kind === "project" ? "not loaded" : "missing"),
          reason: info?.reason,
          runs: info?.confined ? "confined" : "with your rights",
          catalog: entry.catalog,
        };
      }),
    );
    if (options.json) {
      context.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    if (rows.length === 0) {
      context.stdout(`No plugins installed. \`${context.command} install <source>\` installs one.\n`);
      return 0;
    }
    for (const r of rows)
      context.stdout(
        `${r.name}@${r.version}  ${r.scope}  ${r.state}  ${r.source}  runs ${r.runs}` +
          `${r.reason ? `  (${r.reason})` : ""}\n`,
      );
    return 0;
  });
}
