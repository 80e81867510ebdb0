/**
 * ui-acp: keel as an Agent Client Protocol agent for editors (Zed, JetBrains, Neovim, Emacs): `keel acp`
 * (or `keel --mode acp`) speaks ACP on stdin/stdout. Loaded only when chosen; the SDK is imported only when
 * the mode runs. While it runs, what plugins ask goes to the editor as permission requests.
 */
import { definePlugin } from "@keel/extensions-api";
import { editorBackend, type EditorFiles } from "./editor-ops.ts";
import { EditorQuestions } from "./questions.ts";

export default definePlugin({
  activate(api) {
    const questions = new EditorQuestions();
    // Set while a prompt runs in an editor that offers its files; the backend reads and writes through it.
    const editor: { files?: EditorFiles } = {};
    api.registerOps(editorBackend(api, () => editor.files));
    // A person may take their time to answer: no deadline.
    api.hooks.tap("ui_request", { timeoutMs: Infinity }, (request) => questions.ask(request));
    api.registerMode({
      name: "acp",
      description: "the Agent Client Protocol on stdin and stdout, for editors (keel acp)",
      async run(runtime) {
        const { serveAcp } = await import("./agent.ts");
        return serveAcp({
          runtime,
          questions,
          editor,
          plugin: api.plugin,
          permissions: api.allSettings.permissions,
          warn: (message) => void process.stderr.write(`keel acp: ${message}\n`),
          addMcpServers: (servers) => api.publish("session_mcp_servers", { servers, from: "acp" }),
        });
      },
    });
    api.registerCliCommand({
      name: "acp",
      description: "serve the Agent Client Protocol on stdin and stdout, for editors (Zed, JetBrains, Neovim, Emacs)",
      run: (_args, _options, context) => context.runMode("acp"),
    });
  },
});
