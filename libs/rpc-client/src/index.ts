/**
 * @keel/rpc-client — talk to `keel --mode rpc` or `keel serve` from another program: the protocol's types and
 * schemas (`./protocol`), the LF-only line splitter, and `RpcClient`. docs/rpc.md is the protocol reference.
 */
export * from "./protocol.ts";
export { LineSplitter } from "./lines.ts";
export { RpcClient, RpcError, type SpawnOptions, type UiAnswer } from "./client.ts";
export type { ConnectOptions, RpcLink, WebSocketLike } from "./socket-link.ts";
