/**
 * Whether the distribution locks the permission mode (`permissions.mode` in `Runtime.app.locked`). Then its lock
 * also holds `permissions.allow` (the manifest's `locksWith`), and the plugin closes the other ways around it: no
 * "Always allow" is offered (the rule it saves would be ignored), a command's `allowed-tools` grant nothing, and
 * questions go to the distribution's own UI only (`UiRequest.distributionOnly`), so a `--plugin` cannot answer.
 */
import type { PluginAPI } from "@keel/extensions-api";

export const modeLocked = (api: Pick<PluginAPI, "runtime">): boolean =>
  api.runtime.app.locked.includes("permissions.mode");

/** Names the lock in messages. */
export const lockedWhy = (api: Pick<PluginAPI, "runtime">): string =>
  `the permission mode the ${api.runtime.app.command} distribution locks`;
