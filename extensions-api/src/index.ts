/**
 * @keel/extensions-api — the contract between keel and its plugins. Read in this order:
 * messages → provider → tool → ops → hooks → events → plugin → manifest; then the helpers
 * (stream builder, scripted model) and `./testing` for the test kit.
 */
export { z } from "zod";
export * from "./messages.js";
export * from "./provider.js";
export * from "./tool.js";
export * from "./ops.js";
export * from "./ui.js";
export * from "./compaction.js";
export * from "./compaction-cut.js";
export * from "./hooks.js";
export * from "./events.js";
export * from "./plugin.js";
export * from "./manifest.js";
export * from "./stream.js";
export * from "./scripted.js";
export * from "./truncate.js";
export * from "./sleep.js";

/** The version of this contract; plugins declare the range they need in `keel.apiVersion`. */
export const API_VERSION = "1.0.0";
