/**
 * Strict host-key checking, as OpenSSH's `StrictHostKeyChecking yes`: the key the server presents must be in
 * the known_hosts file for this host. An unknown host or a changed key is refused with its fingerprint shown
 * (SHA256, as `ssh` prints it) and what to do; nothing is ever added to the file. Hashed entries (`|1|salt|hash`),
 * `[host]:port` names, patterns with `*`, `?` and `!`, and `@revoked` keys are understood; `@cert-authority`
 * lines are not used (certificates are not supported).
 */
import { createHash, createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

/** A verdict: undefined when the key is known for the host, else why the connection is refused. */
export type HostKeyVerdict = string | undefined;

export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/** The key type named at the start of an SSH wire-format public key (`ssh-ed25519`, ...). */
function keyType(key: Buffer): string {
  const length = key.readUInt32BE(0);
  return key.subarray(4, 4 + length).toString("latin1");
}

function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "i").test(name);
}

/** Whether the comma-separated host field of a line names `name`. */
function namesHost(field: string, name: string): boolean {
  if (field.startsWith("|1|")) {
    const [, , salt, hash] = field.split("|");
    if (!salt || !hash) return false;
    return createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64") === hash;
  }
  let matched = false;
  for (const pattern of field.split(",")) {
    if (pattern.startsWith("!")) {
      if (globMatches(pattern.slice(1), name)) return false;
    } else if (globMatches(pattern, name)) matched = true;
  }
  return matched;
}

/** How known_hosts names a host on a port: the bare name on 22, else `[name]:port`. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

export function checkHostKey(file: string, names: string[], port: number, key: Buffer): HostKeyVerdict {
  const shown = knownHostsName(names[0]!, port);
  const wanted = names.map((name) => knownHostsName(name, port));
  const type = keyType(key);
  const blob = key.toString("base64");
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
  let otherKeyLine: number | undefined;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    const marker = fields[0]!.startsWith("@") ? fields.shift() : undefined;
    const [hosts, lineType, lineKey] = fields;
    if (!hosts || !lineType || !lineKey || marker === "@cert-authority") continue;
    if (!wanted.some((name) => namesHost(hosts, name))) continue;
    const same = lineType === type && lineKey === blob;
    if (marker === "@revoked") {
      if (same)
        return `The host key of ${shown} (${fingerprint(key)}) is marked @revoked in ${file}; keel refused to connect.`;
      continue;
    }
    if (same) return undefined;
    otherKeyLine ??= index + 1;
  }
  if (otherKeyLine !== undefined)
    return (
      `The host key of ${shown} has CHANGED: the server presents ${type} key ${fingerprint(key)}, but ${file} ` +
      `line ${otherKeyLine} holds another key for it. Someone may be in the middle of the connection, or the server ` +
      `was reinstalled; keel refused to connect. If the change is expected, remove the old key ` +
      `(ssh-keygen -R '${shown}' -f ${file}) and add the new one after checking its fingerprint.`
    );
  return (
    `The host ${shown} is not known: its ${type} key ${fingerprint(key)} is not in ${file}, and keel checks host ` +
    `keys strictly. Check the fingerprint with the server's owner, then add the key (ssh-keyscan -p ${port} ` +
    `${names[0]} >> ${file}, or connect once with ssh) and start keel again.`
  );
}
