/**
 * @keel/rpc-server — the serving side of keel's RPC protocol (`@keel/rpc-client/protocol`), whatever carries
 * it: the handler of each command, one message served (`serveMessage`), the session's events as messages
 * (`onEventLines`) and the bridge that puts plugins' questions to clients. `keel --mode rpc` (plugins/ui-rpc)
 * frames them as lines on stdio; `keel serve` (plugins/serve) as WebSocket messages.
 */
export { HANDLERS } from "./handlers.ts";
export { serveMessage } from "./dispatch.ts";
export { onEventLines } from "./event-lines.ts";
export { UiBridge } from "./ui-bridge.ts";
