/**
 * Where the backend connects, as OpenSSH would: the `ops-ssh` settings first, then the SSH config file's entry
 * for the host (`HostName`, `Port`, `User`, `IdentityFile`, `UserKnownHostsFile`), then SSH's defaults.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import SSHConfig from "ssh-config";
import type { SshSettings } from "./settings.ts";

export interface SshTarget {
  /** What the user named: the settings' host (an alias or an address). */
  alias: string;
  /** The address connected to. */
  hostName: string;
  port: number;
  user: string;
  /** Keys to try in order; empty: only the agent. */
  identityFiles: string[];
  knownHostsFile: string;
  /** The remote root as configured (the helper resolves it on the remote). */
  root: string;
}

const DEFAULT_KEYS = ["id_ed25519", "id_ecdsa", "id_rsa"];

export function expandHome(path: string, home = homedir()): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/** The config file's answers for `host`, or none when the file is missing. */
function configFor(file: string, host: string): Record<string, string | string[]> {
  const path = expandHome(file);
  if (!existsSync(path)) return {};
  try {
    return SSHConfig.parse(readFileSync(path, "utf8")).compute(host);
  } catch (error) {
    throw new Error(`The SSH config file ${path} could not be read: ${(error as Error).message}. Fix or move it.`);
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function resolveTarget(settings: SshSettings): SshTarget {
  if (!settings.host)
    throw new Error(
      'The ssh backend has no host: set "ops-ssh": { "host": "...", "root": "..." } in settings.json ' +
        "(a name, an address or a Host alias of ~/.ssh/config).",
    );
  if (!settings.root)
    throw new Error(
      'The ssh backend has no remote folder to work in: set "ops-ssh.root" in settings.json (absolute, or ' +
        "relative to the remote home).",
    );
  const config = configFor(settings.configFile, settings.host);
  const port = settings.port ?? Number(first(config.Port) ?? 22);
  const configKeys = [config.IdentityFile ?? []].flat().map((key) => expandHome(key));
  const identityFiles = settings.identityFile
    ? [expandHome(settings.identityFile)]
    : configKeys.length > 0
      ? configKeys
      : DEFAULT_KEYS.map((name) => join(homedir(), ".ssh", name)).filter((path) => existsSync(path));
  return {
    alias: settings.host,
    hostName: first(config.HostName) ?? settings.host,
    port,
    user: settings.user ?? first(config.User) ?? userInfo().username,
    identityFiles,
    knownHostsFile: expandHome(
      settings.knownHostsFile ?? first(config.UserKnownHostsFile)?.split(/\s+/)[0] ?? "~/.ssh/known_hosts",
    ),
    root: settings.root,
  };
}

/** `user@host:port`, as messages name the target. */
export function describeTarget(target: SshTarget): string {
  return `${target.user}@${target.hostName}:${target.port}`;
}
