/**
 * slash-commands: the session's slash commands every surface shares — /help, /model, /thinking, /resume,
 * /new — over the runtime's model and thinking API and its session store. Their pickers ask through
 * `runtime.ask`, which each surface answers its own way. It starts with the host, so /help and completion
 * know its commands from the first screen; the pickers' code loads on a command's first use.
 */
import { definePlugin, type Runtime, type SlashCommand } from "@keel/extensions-api";

const pickers = () => import("./pickers.ts");
const command = (name: string, description: string, completes = false): SlashCommand => ({
  name,
  description,
  run: async (args, runtime) => (await pickers()).run(name, runtime, args.trim()),
  ...(completes && {
    complete: async (prefix: string, runtime: Runtime) => (await pickers()).argumentsOf(runtime, name, prefix),
  }),
});

export default definePlugin({
  activate(api) {
    api.registerCommand(command("/help", "List the commands and keys"));
    api.registerCommand(command("/model", "Pick the model (or /model <provider>/<id>)", true));
    api.registerCommand(command("/thinking", "Pick how hard the model thinks (or /thinking <level>)", true));
    api.registerCommand(command("/resume", "Pick a session of this folder to continue (or /resume <id>)", true));
    api.registerCommand(command("/new", "Start a new, empty session"));
  },
});
