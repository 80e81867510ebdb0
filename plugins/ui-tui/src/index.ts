/**
 * ui-tui: the full-screen terminal UI, the `tui` mode (plain `keel` when stdin and stdout are terminals). It
 * loads only when chosen; pi-tui and the rest of the UI are imported when the mode starts. While it runs it
 * answers what plugins ask (`ui_request`) with dialogs.
 */
import { definePlugin, type UiRequest, type UiResponse } from "@keel/extensions-api";

interface Asker {
  ask(request: UiRequest): Promise<UiResponse | undefined>;
}

export default definePlugin({
  activate(api) {
    let app: Asker | undefined;
    api.hooks.tap("ui_request", { timeoutMs: Infinity }, (request) => app?.ask(request));
    api.registerMode({
      name: "tui",
      description: "the full-screen terminal UI (the default on a terminal)",
      async run(runtime, options) {
        if (!process.stdin.isTTY || !process.stdout.isTTY) {
          process.stderr.write(
            "keel: the tui mode needs a terminal on stdin and stdout; on a pipe use --mode " +
              "interactive (a line chat) or -p.\n",
          );
          return 2;
        }
        const { TuiApp } = await import("./app.ts");
        const tui = new TuiApp(runtime);
        app = tui;
        try {
          return await tui.run(options.prompt);
        } finally {
          app = undefined;
        }
      },
    });
  },
});
