/**
 * ui-rpc: `keel --mode rpc`, keel driven by another program over stdin and stdout with one JSON object per
 * LF-terminated line (the protocol is `@keel/rpc-client`'s; docs/rpc.md describes it). Loaded only when the
 * mode is chosen; while it runs it answers what plugins ask (`ui_request`) by asking the client.
 */
import { definePlugin } from "@keel/extensions-api";
import { rpcMode } from "./rpc-mode.ts";
import { UiBridge } from "@keel/rpc-server";

export default definePlugin({
  activate(api) {
    const bridge = new UiBridge();
    // A person may take their time to answer: no deadline.
    api.hooks.tap("ui_request", { timeoutMs: Infinity }, (request) => bridge.ask(request));
    api.registerMode(rpcMode(bridge));
  },
});
