/**
 * The permission mode a hook's input reports (`permission_mode`), as Claude Code sends its own: the
 * `--permission-mode` flag, else the `permissions.mode` setting, else the permissions plugin's default, then
 * whatever `/permissions` switched it to (the `permission_mode` event). `--yes` leaves the mode as it is.
 */
import type { PluginAPI, Runtime } from "@keel/extensions-api";

/** The permissions plugin's default mode. */
const DEFAULT_MODE = "auto";

/** `runtime` is the session's (the host takes `api.runtime` away before `session_end`, which still runs hooks). */
export function permissionMode(api: Pick<PluginAPI, "allSettings" | "events">, runtime: () => Runtime): () => string {
  let switched: string | undefined;
  api.events.on("permission_mode", ({ mode }) => void (switched = mode));
  return () => {
    if (switched) return switched;
    // The command line gives flags camel-cased (commander); the test kit as they are written.
    const flags = runtime().flags;
    const flag = flags.permissionMode ?? flags["permission-mode"];
    if (typeof flag === "string") return flag;
    const setting = (api.allSettings.permissions as { mode?: unknown } | undefined)?.mode;
    return typeof setting === "string" ? setting : DEFAULT_MODE;
  };
}
