/**
 * ui-tui: the full-screen terminal UI, the `tui` mode (plain `keel` when stdin and stdout are terminals). It
 * loads only when chosen, or when a project folder's trust is to be decided; pi-tui and the rest of the UI are
 * imported when the mode starts (or the trust question is asked). While it runs it answers what plugins ask
 * (`ui_request`) with dialogs; before it, whether to trust the folder, when the TUI is the mode that will run.
 */
import { definePlugin, type UiRequest, type UiResponse } from "@keel/extensions-api";

interface Asker {
  ask(request: UiRequest): Promise<UiResponse | undefined>;
}

export default definePlugin({
  activate(api) {
    let app: Asker | undefined;
    api.hooks.tap("ui_request", { timeoutMs: Infinity }, (request) => app?.ask(request));
    // Ahead of the line chat's question on stderr, which would otherwise ask first, before this UI draws.
    api.hooks.tap("project_trust", { timeoutMs: Infinity, before: "@keel/plugin-ui-print" }, async (request) => {
      const asking = request.interactive && request.mode === "tui" && !request.granted;
      if (!asking || request.remembered !== undefined || !process.stdin.isTTY || !process.stdout.isTTY) return;
      const { askTrust } = await import("./trust-dialog.ts");
      // Dismissed, the folder stays untrusted for this run and is asked about next time (nothing remembered).
      return (await askTrust(request)) ?? { trusted: false };
    });
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
