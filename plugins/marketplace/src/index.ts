/**
 * keel's installer commands: `keel install|remove|update|list|enable|disable|info|search` and
 * `keel market add|list|update|remove`. Only registration happens here; each command loads its module (and
 * through it the installer and npm's libraries) when it runs, so no other command pays for them.
 */
import { definePlugin, type CliCommandSpec, type FlagSpec } from "@keel/extensions-api";
import { lazy } from "./lazy-command.ts";
import { MarketplaceSettingsSchema } from "./settings.ts";

const project: FlagSpec = {
  name: "project",
  description: "the project's plugins (.keel/) instead of yours",
  type: "boolean",
};
const yes: FlagSpec = { name: "yes", short: "y", description: "agree without asking (for scripts)", type: "boolean" };
const json: FlagSpec = { name: "json", description: "print JSON", type: "boolean" };
const allowGit: FlagSpec = { name: "allow-git", description: "allow a git source (opt-in)", type: "boolean" };
const allowRemote: FlagSpec = { name: "allow-remote", description: "allow a tarball URL (opt-in)", type: "boolean" };

export default definePlugin({
  settings: MarketplaceSettingsSchema,
  activate(api) {
    const s = api.settings;
    const commands: CliCommandSpec[] = [
      lazy(
        {
          name: "install",
          description:
            "install a plugin (npm:<pkg>[@range], git:<url>[#ref], a folder, a .tgz, or a catalog " +
            "name); with no source, what keel.lock lists",
          arguments: "[source]",
          options: [
            project,
            yes,
            allowGit,
            allowRemote,
            {
              name: "sha512",
              description: "the sha512 the tarball must have",
              type: "string",
              valueName: "<integrity>",
            },
          ],
        },
        () => import("./commands/install.ts"),
        s,
      ),
      lazy(
        {
          name: "update",
          description: "update installed plugins (or one); --rollback <name> goes back to the previous version",
          arguments: "[name]",
          options: [
            project,
            yes,
            { name: "rollback", description: "go back to the version before the last update", type: "boolean" },
          ],
        },
        () => import("./commands/update.ts"),
        s,
      ),
      lazy(
        { name: "remove", description: "remove an installed plugin", arguments: "<name>", options: [project, yes] },
        () => import("./commands/remove.ts"),
        s,
      ),
      lazy(
        { name: "list", description: "installed plugins, their source, version and state", options: [project, json] },
        () => import("./commands/list.ts"),
        s,
      ),
      lazy(
        { name: "enable", description: "enable a disabled plugin", arguments: "<name>", options: [project] },
        () => import("./commands/enable.ts"),
        s,
      ),
      lazy(
        {
          name: "disable",
          description: "disable a plugin without removing it",
          arguments: "<name>",
          options: [project],
        },
        () => import("./commands/disable.ts"),
        s,
      ),
      lazy(
        {
          name: "info",
          description: "what an installed or catalog plugin is, contributes and may do",
          arguments: "<name>",
          options: [json],
        },
        () => import("./commands/info.ts"),
        s,
      ),
      lazy(
        { name: "search", description: "search every added catalog", arguments: "<words...>", options: [json] },
        () => import("./commands/search.ts"),
        s,
      ),
      lazy(
        {
          name: "market",
          description:
            "catalogs: market add <path|git url|https url>, market list, market update [name], market remove " +
            "<name>; for owners, market keygen [folder] and market sign <file>",
          arguments: "<action> [target]",
          options: [
            allowGit,
            {
              name: "key",
              description: "add: the public key the catalog must be signed by; sign: the secret key file",
              type: "string",
              valueName: "<key|file>",
            },
            {
              name: "accept-key",
              description: "update: accept the catalog's new signing key (its id, or the public key)",
              type: "string",
              valueName: "<id|key>",
            },
          ],
        },
        () => import("./commands/market.ts"),
        s,
      ),
    ];
    for (const command of commands) api.registerCliCommand(command);
  },
});
