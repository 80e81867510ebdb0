/**
 * ops-memory: the `memory` operations backend, files in a map. For tests of file tools and for trying a
 * distribution without touching the disk. Seed it from settings: `"ops-memory": { "files": { "a.txt": "hi" } }`.
 */
import { definePlugin } from "@keel/extensions-api";
import { createMemoryOps } from "./memory-ops.ts";
import { MemoryOpsSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: MemoryOpsSettingsSchema,
  activate(api) {
    api.registerOps({
      name: "memory",
      description: "Files in memory (tests); cannot run processes",
      create({ cwd }) {
        return createMemoryOps(cwd, api.settings.files);
      },
    });
  },
});
