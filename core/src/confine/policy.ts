/**
 * Which plugins run confined, and whether this machine can confine them. Every plugin from outside the
 * distribution does (installed, `--plugin`, a trusted project's, the user's folder) with `plugins.confine`
 * `third-party`; the distribution's own too with `all` or a distribution's `plugins.requireConfinement`.
 * Where bubblewrap cannot start, such a plugin is refused with the reason unless the user named it in
 * `plugins.unconfined`: then it runs under Node's permission model alone. Never a silent fallback.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { PluginSource } from "@keel/extensions-api";

/** How a runtime confines: the CLI confines third-party plugins; the test kit none, or all (KEEL_KIT_CONFINE=1). */
export type ConfineMode = "third-party" | "all" | "none";

export interface ConfinementSettings {
  confine: ConfineMode;
  unconfined: readonly string[];
  requireConfinement: boolean;
}

export type ConfinementDecision =
  { confine: false } | { confine: true; bwrap: string | undefined; warning?: string } | { refused: string };

let support: { bwrap: string } | { reason: string } | undefined;

/** Whether bubblewrap is on PATH and can start a sandbox here (user namespaces allowed); probed once. */
export function sandboxSupport(): { bwrap: string } | { reason: string } {
  if (support) return support;
  const bwrap = (process.env.PATH ?? "")
    .split(delimiter)
    .map((dir) => join(dir, "bwrap"))
    .find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (!bwrap) return (support = { reason: "bubblewrap (bwrap) is not installed (apt install bubblewrap)" });
  const probe = spawnSync(bwrap, ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (probe.status !== 0)
    return (support = {
      reason: `bubblewrap cannot start a sandbox here (${(probe.stderr || probe.error?.message || "").trim()})`,
    });
  return (support = { bwrap });
}

/**
 * Whether the plugin runs only confined, by the settings alone: listings ask this, so they never start the
 * bubblewrap probe (a `keel -p` whose context plugin lists the plugins would pay for it).
 */
export function mustConfine(
  plugin: { source: PluginSource },
  mode: ConfineMode | undefined,
  settings: ConfinementSettings,
): boolean {
  const chosen = settings.requireConfinement ? "all" : (mode ?? settings.confine);
  return chosen !== "none" && (plugin.source !== "distribution" || chosen === "all");
}

/** `mode`: the runtime's own (the test kit's), else the `plugins.confine` setting. */
export function decideConfinement(
  plugin: { name: string; source: PluginSource },
  mode: ConfineMode | undefined,
  settings: ConfinementSettings,
): ConfinementDecision {
  if (!mustConfine(plugin, mode, settings)) return { confine: false };
  const here = sandboxSupport();
  if ("bwrap" in here) return { confine: true, bwrap: here.bwrap };
  if (settings.unconfined.includes(plugin.name) && !settings.requireConfinement)
    return {
      confine: true,
      bwrap: undefined,
      warning:
        `runs under Node's permission model only, as plugins.unconfined asks: ${here.reason}, so its ` +
        "network and other processes are not confined.",
    };
  const optIn = settings.requireConfinement
    ? "this distribution requires confinement (plugins.requireConfinement)"
    : `to run it with only Node's permission model (its network not confined), add "${plugin.name}" to ` +
      "plugins.unconfined in settings.json";
  return { refused: `it must run confined and cannot be here: ${here.reason}; ${optIn}` };
}
