/**
 * `main`'s second step: plugins' output, stray errors and `process.exit` contained, then the runtime started
 * (settings, trust, the startup plugins) with its warnings and the trust notice written, and the plugin of the
 * subcommand named on the command line loaded.
 */
import { trace } from "@keel/kernel";
import { containPlugins, type Containment } from "../host/containment.js";
import { distributionHome } from "../runtime/read-distribution.js";
import { RequiredPluginError } from "../runtime/required-plugins.js";
import { KeelRuntime } from "../runtime/runtime.js";
import type { Boot } from "./read-boot.js";

export interface Started {
  runtime: KeelRuntime;
  containment: Containment;
}

/** The started runtime, or the exit code when a plugin keel must not run without is missing. */
export async function startRuntime(boot: Boot, err: (text: string) => void): Promise<Started | number> {
  const { name, args } = boot;
  // Before any plugin code runs, for the rest of the process: plugins' console output, stray errors and
  // process.exit are contained from the start.
  const containment = containPlugins(name);
  let runtime: KeelRuntime;
  try {
    runtime = await KeelRuntime.create(
      {
        cwd: boot.cwd,
        keelHome: distributionHome(name),
        distribution: boot.distribution,
        pluginPaths: boot.pluginPaths,
        safeMode: args.safeMode,
        extraSettings: boot.extraSettings,
        trust: boot.trust,
      },
      (rt) => {
        rt.bus.on("plugin_error", (e) => err(`${name}: plugin ${e.plugin.name}@${e.plugin.version}: ${e.message}\n`));
        rt.bus.on("plugin_warning", (e) =>
          err(`${name}: ${e.plugin ? `plugin ${e.plugin.name}: ` : ""}${e.message}\n`),
        );
        containment.attach({
          ownerOf: (file) => rt.host.ownerOfFile(file),
          report: (plugin, phase, message) => rt.bus.emit("plugin_error", { plugin, phase, message }),
        });
      },
    );
  } catch (error) {
    if (!(error instanceof RequiredPluginError)) throw error;
    err(`${name}: ${error.message}\n`);
    return 2;
  }
  trace("runtime ready (startup plugins active)");
  for (const w of runtime.warnings) err(`${name}: ${w}\n`);
  // `keel trust` is about to answer it; everywhere else the one notice says what was skipped.
  if (runtime.trust?.notice && args.firstWord !== "trust") err(`${name}: ${runtime.trust.notice}\n`);
  if (args.firstWord && runtime.host.waitsFor("cliCommands", args.firstWord))
    await runtime.host.activateFor("cliCommands", args.firstWord);
  return { runtime, containment };
}
