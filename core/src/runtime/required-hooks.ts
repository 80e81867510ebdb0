/**
 * `projectHooks: "required"`: a team that relies on its project's hooks (a guard on every bash call) can say so in
 * the managed settings or its distribution. Then a run in a project folder whose hooks cannot run, because the
 * folder is not trusted (never, or no longer since its files changed), gets no tool call at all: each is refused
 * by a guard ahead of every plugin's, saying why and what to do, rather than run unguarded. The model still
 * answers; only tools wait for trust.
 */
import { STAGE_POLICY, type PluginRef } from "@keel/extensions-api";
import type { HookBus } from "@keel/kernel";
import type { CoreSettings } from "../settings/core-settings.js";
import type { ProjectTrust } from "../trust/decide.js";

/** Taps the refusing guard when it applies; returns its reason, or undefined when tools may run. */
export function requireProjectHooks(
  hooks: HookBus,
  trust: ProjectTrust,
  core: CoreSettings,
  app: PluginRef,
): string | undefined {
  if (core.projectHooks !== "required" || trust.trusted || trust.config.hooks.length === 0) return undefined;
  const reason =
    `No tool runs here: this project's hooks (${trust.config.hooks.join(", ")}) are required to guard every run, ` +
    `and the folder is not trusted, so they cannot run. Ask the user to review the project's configuration and ` +
    `run "${app.name} trust", then try again.`;
  hooks.tap(app, "tool_call", { stage: STAGE_POLICY - 100 }, () => ({ block: true, reason }));
  return reason;
}
