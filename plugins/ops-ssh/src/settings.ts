/**
 * Settings of the `ssh` backend (`"ops-ssh"` section of settings.json): which host, as whom, with which key
 * and known_hosts file, and the remote folder tools work in. What is not set here comes from the `Host` entry
 * of the SSH config file, then from SSH's defaults.
 */
import { z } from "@keel/extensions-api";

export const SshSettingsSchema = z
  .object({
    host: z
      .string()
      .min(1)
      .optional()
      .describe("The host to connect to: a name or address, or a `Host` alias of the SSH config file."),
    port: z.number().int().min(1).max(65535).optional().describe("The SSH port (default: the config's, else 22)."),
    user: z.string().min(1).optional().describe("The remote user (default: the config's, else your local name)."),
    identityFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The private key to log in with; `~/` means the home folder (default: the config's, else the agent " +
          "and ~/.ssh/id_ed25519, id_ecdsa, id_rsa).",
      ),
    knownHostsFile: z
      .string()
      .min(1)
      .optional()
      .describe("The known_hosts file the host key must be in (default: the config's, else ~/.ssh/known_hosts)."),
    root: z
      .string()
      .min(1)
      .optional()
      .describe("The remote folder tools work in, absolute or relative to the remote home; they cannot leave it."),
    configFile: z
      .string()
      .min(1)
      .default("~/.ssh/config")
      .describe("The SSH config file whose `Host` entries are read."),
  })
  .prefault({});

export type SshSettings = z.output<typeof SshSettingsSchema>;
