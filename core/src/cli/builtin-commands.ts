/**
 * Subcommands about the host itself: `keel plugins` and `keel models`.
 */
import type { Command } from "commander";
import { CONTRIBUTION_KINDS, CONTRIBUTIONS } from "@keel/extensions-api";
import type { KeelRuntime } from "../runtime/runtime.js";

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n") + "\n";
}

export function addBuiltinCommands(program: Command, runtime: KeelRuntime, out: (text: string) => void): void {
  program
    .command("plugins")
    .description("list plugins: name, version, source, state and what each contributes")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      const plugins = runtime.listPlugins();
      if (opts.json) return out(JSON.stringify(plugins, null, 2) + "\n");
      const rows = [["NAME", "VERSION", "SOURCE", "STATE", "CONTRIBUTES"]];
      for (const p of plugins) {
        const parts = [...CONTRIBUTION_KINDS.flatMap((kind) => p.contributes[kind].map((name) => `${CONTRIBUTIONS[kind].show}${name}`)), ...p.contributes.hooks.map((x) => `hook:${x}`)];
        rows.push([p.name, p.version, p.source, p.state, parts.join(" ") + (p.reason ? `  (${p.reason})` : "")]);
      }
      out(table(rows));
    });

  program
    .command("models")
    .description("list the models of every installed provider")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const models = await runtime.allModels();
      if (opts.json) return out(JSON.stringify(models, null, 2) + "\n");
      const rows = [["PROVIDER", "MODEL", "CONTEXT", "MAX OUT", "$/M IN", "$/M OUT"]];
      for (const m of models) rows.push([m.provider, m.id, String(m.contextWindow), String(m.maxOutput), m.cost ? String(m.cost.input) : "-", m.cost ? String(m.cost.output) : "-"]);
      out(table(rows));
    });
}
