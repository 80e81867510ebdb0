/**
 * session-jsonl: every session is an append-only JSONL tree under `$KEEL_HOME/sessions/<folder>/`. Resume
 * with `-c` / `--session`, keep nothing with `--no-session`, move around with /tree, /fork, /label, /name,
 * /export, list with `keel sessions`.
 * Surfaces drive the same through its session store (`runtime.sessionStore()`). Keeps plugins' `api.session` entries
 * and hands them back on every move.
 */
import { definePlugin } from "@keel/extensions-api";
import { sessionsCli } from "./cli.ts";
import { sessionCommands } from "./commands.ts";
import { SessionController, startRequest } from "./controller.ts";
import { sessionArgProblem } from "./paths.ts";
import { sessionStore } from "./store.ts";
import { SessionSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: SessionSettingsSchema,
  activate(api) {
    const controller = new SessionController({
      keelHome: api.keelHome,
      cwd: api.cwd,
      lock: { staleMs: api.settings.lockStaleMs },
      fsync: api.settings.fsync,
      warn: (message) => api.log.warn(message),
    });
    api.registerFlag({
      name: "continue",
      short: "c",
      description: "Continue the most recent session of this folder",
      type: "boolean",
    });
    api.registerFlag({
      name: "session",
      description: "Resume a session by id, id prefix or file path",
      type: "string",
      valueName: "<id|path>",
      check: (value) => sessionArgProblem(api.keelHome, api.cwd, value),
    });
    api.registerFlag({ name: "no-session", description: "Keep nothing: do not save this session", type: "boolean" });
    api.hooks.tap("session_start", async () => controller.start(api.runtime, startRequest(api.runtime.flags)));
    api.hooks.tap("session_end", () => controller.close());
    api.events.on("message_end", ({ message }) => controller.onMessage(message));
    // Events are delivered synchronously, so the history read here is the one the compaction just made.
    api.events.on("compaction_end", (event) =>
      controller.onCompaction(event, api.runtime.messages, api.runtime.pluginEntries),
    );
    api.events.on("session_entry", ({ entry }) => controller.onPluginEntry(entry));
    for (const command of sessionCommands(controller)) api.registerCommand(command);
    api.registerCliCommand(sessionsCli);
    api.registerSessionStore(sessionStore(controller, () => api.runtime));
    api.onDispose(() => controller.close());
  },
});
