/**
 * Settings of the `local` backend (`"ops-local"` section of settings.json): folders outside the workspace the
 * agent may also use, and how commands are started.
 */
import { z } from "@keel/extensions-api";

export const AllowedRootSchema = z.object({
  path: z.string().min(1).describe("Absolute, or relative to the workspace; `~/` means the home folder."),
  access: z
    .enum(["read", "read-write"])
    .default("read")
    .describe("`read` lets tools read there; `read-write` also lets them write."),
});

export const LocalOpsSettingsSchema = z
  .object({
    allowedRoots: z.array(AllowedRootSchema).default([]).describe("Folders outside the workspace tools may also use."),
    longLivedShell: z
      .boolean()
      .default(true)
      .describe(
        "Start commands from one helper process per session (perl) instead of forking keel for each; " +
          "`false` spawns every command from keel.",
      ),
  })
  .default({ allowedRoots: [], longLivedShell: true });

export type AllowedRoot = z.output<typeof AllowedRootSchema>;
export type LocalOpsSettings = z.output<typeof LocalOpsSettingsSchema>;
