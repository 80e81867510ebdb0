/**
 * The `sandbox-bwrap` section of settings.json: where bubblewrap is, what the sandbox may write, which dotfiles
 * it may read, and whether it may reach the network.
 */
import { z } from "@keel/extensions-api";

export const SandboxSettingsSchema = z
  .object({
    bwrap: z.string().min(1).default("bwrap").describe("The bubblewrap program: a name looked up in PATH, or a path."),
    network: z
      .boolean()
      .default(false)
      .describe("Let sandboxed commands use the network (off: a private network namespace with only loopback)."),
    gitReadOnly: z
      .boolean()
      .default(true)
      .describe(
        "Keep the workspace's `.git` folder read-only inside the sandbox, so commands cannot change hooks or history.",
      ),
    writable: z
      .array(z.string().min(1))
      .default([])
      .describe("More folders commands may write: absolute, relative to the workspace, or `~/` for the home folder."),
    dotfiles: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Files or folders of the home folder shown read-only in the otherwise empty private home, e.g. `.gitconfig`.",
      ),
  })
  .prefault({});

export type SandboxSettings = z.output<typeof SandboxSettingsSchema>;
