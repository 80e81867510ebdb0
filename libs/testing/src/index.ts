/**
 * @keel/testing — the plugin test kit: runs plugins inside a real keel runtime, with a scripted model, in a
 * temp workspace, and records what happened. keel's own plugin tests use it; so can a plugin outside this repo
 * (install `@keel/testing` as a dev dependency).
 *
 * ```ts
 * const kit = await createTestKit({
 *   plugins: [pluginDir],
 *   script: [{ toolCalls: [{ name: "notify" }] }, { text: "done" }],
 * });
 * await kit.run("go");
 * expect(kit.eventNames()).toContain("tool_execution_end");
 * await kit.dispose();
 * ```
 */
export { createTestKit } from "./test-kit.js";
export type { InlinePlugin, RecordedEvent, TestKit, TestKitOptions } from "./types.js";
