/**
 * @keel/extensions-api — the contract between keel and its plugins, and nothing else. Read in this order:
 * messages → provider → tool → ops → ui → compaction → hooks → events → session → session-store → plugin → cli
 * → contributions
 * → manifest → distribution.
 *
 * Helpers and policy live on subpaths, so a changed heuristic does not change the versioned contract:
 * `/stream` (building provider replies), `/truncate` (tool output), `/compaction` (cut points, summary wording),
 * `/scripted` (a scripted model), `/paths` (path-text limits), `/sleep`, `/mcp-config` (the `mcpServers` format),
 * `/lazy-schema` (a zod schema built on first use), `/random-id` (ids without node:crypto), `/catalog` (plugin
 * catalogs), `/user-settings` (editing the user's settings file) and `/render` (plain rendering of UI
 * contributions). test/meta/subpaths.test.ts holds every list of them to package.json's `exports`.
 */
export { z } from "zod";
export * from "./messages.js";
export * from "./provider.js";
export * from "./tool.js";
export * from "./ops.js";
export * from "./ui.js";
export * from "./compaction.js";
export * from "./hooks.js";
export * from "./events.js";
export * from "./session.js";
export * from "./session-store.js";
export * from "./plugin.js";
export * from "./plugin-info.js";
export * from "./cli.js";
export * from "./install-policy.js";
export * from "./logger.js";
export * from "./contributions.js";
export * from "./manifest.js";
export * from "./capabilities.js";
export * from "./distribution.js";

/** The version of this contract; plugins declare the range they need in `keel.apiVersion`. */
export const API_VERSION = "1.0.0";
