/**
 * serve: `keel serve`, one process holding many sessions for many clients over HTTP — the RPC protocol over
 * WebSockets, resumable, behind a token — and the web UI built beside it (web/). Only registration happens
 * here: the server's code loads when the command runs, so no other command reads any of it.
 */
import { definePlugin } from "@keel/extensions-api";
import { SERVE_FLAGS } from "./flags.ts";

export default definePlugin({
  activate(api) {
    api.registerCliCommand({
      name: "serve",
      description: "serve sessions and the web UI over HTTP (127.0.0.1 unless --host and --expose say otherwise)",
      options: SERVE_FLAGS,
      run: async (_args, options, context) => (await import("./start.ts")).serve(options, context),
    });
  },
});
