/**
 * Required plugins (`plugins.required` in the distribution's, the user's or the managed settings) are policies that
 * must not be switched off: one that is missing, disabled, blocked, failed to load or has an invalid section stops
 * keel before any model request, naming it, instead of running without it.
 */
import type { PluginHost } from "../host/plugin-host.js";

export class RequiredPluginError extends Error {
  constructor(
    readonly plugins: string[],
    message: string,
  ) {
    super(message);
    this.name = "RequiredPluginError";
  }
}

export function checkRequired(
  required: readonly string[],
  host: PluginHost,
  context: { safeMode: boolean; managedFile: string },
): RequiredPluginError | undefined {
  const problems: string[] = [];
  const names: string[] = [];
  for (const name of required) {
    const r = host.find(name);
    if (r && (r.state === "active" || r.state === "degraded")) continue;
    const why = !r
      ? context.safeMode
        ? "--safe-mode loads only the distribution's own plugins"
        : "it is not installed (not in the distribution, $KEEL_HOME/plugins or a --plugin path)"
      : r.state === "lazy"
        ? "it did not activate"
        : (r.reason ?? r.state);
    names.push(name);
    problems.push(`${name}: ${why}`);
  }
  if (problems.length === 0) return undefined;
  return new RequiredPluginError(
    names,
    `Required plugin${problems.length > 1 ? "s" : ""} cannot run, so keel stops: ${problems.join("; ")}. ` +
      `plugins.required (the distribution, user settings or ${context.managedFile}) says keel must ` +
      `not run without ${problems.length > 1 ? "them" : "it"}; fix the cause above.`,
  );
}
