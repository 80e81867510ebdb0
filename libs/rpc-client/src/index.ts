/**
 * @keel/rpc-client — talk to `keel --mode rpc` from another program: the protocol's types and schemas
 * (`./protocol`), the LF-only line splitter, and `RpcClient`. docs/rpc.md is the protocol reference.
 */
export * from "./protocol.ts";
export { LineSplitter } from "./lines.ts";
export { RpcClient, RpcError, type SpawnOptions, type UiAnswer } from "./client.ts";
