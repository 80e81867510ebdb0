/**
 * One SSH connection to the target: the host key checked strictly (./known-hosts.ts) before anything is sent,
 * agent forwarding off, and the keys tried in order (the agent first when there is one). A failure says what
 * happened and what to do, in words rather than ssh2's ("Host denied", "All configured authentication
 * methods failed").
 */
import { existsSync, readFileSync } from "node:fs";
import { Client, utils, type AuthMethod, type ConnectConfig } from "ssh2";
import { checkHostKey, type HostKeyVerdict } from "./known-hosts.ts";
import { describeTarget, type SshTarget } from "./target.ts";

const READY_TIMEOUT_MS = 20_000;
const KEEPALIVE_MS = 15_000;

interface Auth {
  methods: AuthMethod[];
  /** Keys that could not be used, each with why, for the error when none worked. */
  skipped: string[];
}

function authMethods(target: SshTarget): Auth {
  const methods: AuthMethod[] = [];
  const skipped: string[] = [];
  const agent = process.env.SSH_AUTH_SOCK;
  if (agent) methods.push({ type: "agent", username: target.user, agent } as AuthMethod);
  for (const file of target.identityFiles) {
    if (!existsSync(file)) {
      skipped.push(`${file} does not exist`);
      continue;
    }
    const key = readFileSync(file);
    const parsed = utils.parseKey(key);
    if (parsed instanceof Error) {
      skipped.push(`${file}: ${parsed.message} (a key with a passphrase must be in the SSH agent)`);
      continue;
    }
    methods.push({ type: "publickey", username: target.user, key } as AuthMethod);
  }
  return { methods, skipped };
}

/** What was offered, for the error when the server took none of it. */
function offered(target: SshTarget, auth: Auth): string {
  const tried = [
    ...(process.env.SSH_AUTH_SOCK ? ["the agent's keys"] : []),
    ...target.identityFiles.filter((file) => !auth.skipped.some((why) => why.startsWith(file))),
  ];
  const left = auth.skipped.length > 0 ? `; left out: ${auth.skipped.join("; ")}` : "";
  return `${tried.join(", ")}${left}`;
}

/** Connects, or rejects with an error that says why and what to do. */
export function connect(target: SshTarget): Promise<Client> {
  const where = describeTarget(target);
  const auth = authMethods(target);
  if (auth.methods.length === 0)
    return Promise.reject(
      new Error(
        `keel has no key to log in to ${where} with: no SSH agent (SSH_AUTH_SOCK) and no usable key` +
          `${auth.skipped.length > 0 ? ` (${auth.skipped.join("; ")})` : ""}. Set "ops-ssh.identityFile".`,
      ),
    );
  let verdict: HostKeyVerdict;
  const client = new Client();
  const config: ConnectConfig = {
    host: target.hostName,
    port: target.port,
    username: target.user,
    agentForward: false,
    readyTimeout: READY_TIMEOUT_MS,
    keepaliveInterval: KEEPALIVE_MS,
    authHandler: auth.methods,
    hostVerifier: (key: Buffer) => {
      verdict = checkHostKey(target.knownHostsFile, [target.hostName, target.alias], target.port, key);
      return verdict === undefined;
    },
  };
  return new Promise((resolve, reject) => {
    const fail = (error: Error & { code?: string; level?: string }) => {
      client.end();
      if (verdict !== undefined) return reject(new Error(verdict));
      if (error.level === "client-authentication")
        return reject(
          new Error(
            `${where} refused every key keel offered (${offered(target, auth)}). Check "ops-ssh.user" ` +
              `and "ops-ssh.identityFile", and that the key is in the remote ~/.ssh/authorized_keys.`,
          ),
        );
      reject(
        new Error(
          `Could not connect to ${where}: ${error.message}. Check the host and port, and that sshd runs there.`,
        ),
      );
    };
    client.once("ready", () => {
      // Each operation is a few small requests and answers: Nagle's algorithm would hold each one back.
      client.setNoDelay(true);
      client.removeListener("error", fail);
      resolve(client);
    });
    client.once("error", fail);
    client.connect(config);
  });
}
