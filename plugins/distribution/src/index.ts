/**
 * dist: `keel dist build <manifest> --out <dir>` and `keel dist run <manifest> [-- args]`. Loaded only when
 * the command line names `dist`.
 */
import { definePlugin } from "@keel/extensions-api";
import { distCommand } from "./command.ts";

export default definePlugin({
  activate(api) {
    api.registerCliCommand(distCommand(() => api.allSettings));
  },
});
