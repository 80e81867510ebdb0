/**
 * Subcommands about the host itself: `keel plugins`, `keel models` and `keel trust`.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { CONTRIBUTION_KINDS, CONTRIBUTIONS } from "@keel/extensions-api";
import type { KeelRuntime } from "../runtime/runtime.js";
import { readProjectConfig } from "../trust/project-config.js";
import { TrustStore } from "../trust/trust-store.js";

/** Their names: a first word naming one is a subcommand, so the UI never asks anything for it. */
export const BUILTIN_COMMANDS = ["plugins", "models", "trust"];

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return (
    rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n") +
    "\n"
  );
}

export function addBuiltinCommands(
  program: Command,
  runtime: KeelRuntime,
  out: (text: string) => void,
  err: (text: string) => void,
  command: string,
  fail: (exitCode: number) => void,
): void {
  program
    .command("plugins")
    .description("list plugins: name, version, source, state and what each contributes")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      const plugins = runtime.listPlugins();
      if (opts.json) return out(JSON.stringify(plugins, null, 2) + "\n");
      const rows = [["NAME", "VERSION", "SOURCE", "STATE", "RUNS", "CONTRIBUTES"]];
      for (const p of plugins) {
        const parts = [
          ...CONTRIBUTION_KINDS.flatMap((kind) =>
            p.contributes[kind].map((name) => `${CONTRIBUTIONS[kind].show}${name}`),
          ),
          ...p.contributes.hooks.map((x) => `hook:${x}`),
        ];
        const runs = p.confined ? "confined" : "with your rights";
        rows.push([p.name, p.version, p.source, p.state, runs, parts.join(" ") + (p.reason ? `  (${p.reason})` : "")]);
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
      for (const m of models)
        rows.push([
          m.provider,
          m.id,
          String(m.contextWindow),
          String(m.maxOutput),
          m.cost ? String(m.cost.input) : "-",
          m.cost ? String(m.cost.output) : "-",
        ]);
      out(table(rows));
    });

  program
    .command("trust [dir]")
    .description("trust a folder's own configuration (.keel/settings.json, .mcp.json); a change to it asks again")
    .option("--revoke", "forget the folder's trust decision")
    .action(async (dir: string | undefined, opts: { revoke?: boolean }) => {
      const config = readProjectConfig(resolve(runtime.cwd, dir ?? "."));
      const store = new TrustStore(runtime.keelHome, runtime.app.command);
      const warnings: string[] = [];
      if (opts.revoke)
        out(
          (await store.forget(config.dir, warnings))
            ? `No longer trusted: ${config.dir}\n`
            : `${config.dir} had no trust decision.\n`,
        );
      else if (await store.remember(config, true, warnings)) {
        const what = config.files.length > 0 ? config.files.join(", ") : "no configuration yet";
        out(`Trusted ${config.dir} (${what}). Its settings apply from now on; a change to them asks again.\n`);
      } else fail(1);
      for (const w of warnings) err(`${command}: ${w}\n`);
    });
}
