/**
 * A CLI command with a flag: `keel where` prints where keel keeps its files (home, plugin folder) and each
 * plugin it found with its state; `keel where --json` prints the same as JSON for scripts. A CLI command runs
 * instead of the agent (no session, no model); its plugin is loaded only when the command is used.
 */
import { join } from "node:path";
import { definePlugin } from "@keel/extensions-api";

export default definePlugin({
  activate(api) {
    api.registerCliCommand({
      name: "where",
      description: "where keel keeps its files, and the plugins it found",
      options: [{ name: "json", description: "print JSON instead of text", type: "boolean" }],
      run(_args, options, context) {
        const info = {
          cwd: context.cwd,
          keelHome: context.keelHome,
          pluginFolder: join(context.keelHome, "plugins"),
          plugins: context
            .listPlugins()
            .map((p) => ({ name: p.name, version: p.version, state: p.state, source: p.source })),
        };
        if (options.json) {
          context.stdout(`${JSON.stringify(info, null, 2)}\n`);
          return 0;
        }
        const rows = info.plugins.map((p) => `  ${p.name}@${p.version}  ${p.state}  (${p.source})`);
        context.stdout(
          `home     ${info.keelHome}\nplugins  ${info.pluginFolder}\nworkspace ${info.cwd}\n\n${rows.join("\n")}\n`,
        );
        return 0;
      },
    });
  },
});
