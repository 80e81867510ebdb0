/**
 * Strict host-key checking: a known key connects; an unknown host and a changed key are refused, naming the
 * fingerprint the server presents (as `ssh-keygen -l` prints it) and what to do; the known_hosts forms OpenSSH
 * writes (hashed names, `[host]:port`, patterns, `@revoked`) are read. Also: a `Host` alias of the SSH config
 * file supplies the address, port, user, key and known_hosts file; the agent logs keel in and is never forwarded.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSshd, type Sshd } from "../../../test/support/sshd.ts";
import { createSshOps } from "../src/create.ts";
import { checkHostKey, fingerprint } from "../src/known-hosts.ts";
import { SshSettingsSchema } from "../src/settings.ts";

let sshd: Sshd;
let root: string;
beforeAll(async () => {
  sshd = await startSshd();
  root = join(sshd.dir, "root");
  mkdirSync(root);
});
afterAll(() => sshd.stop());

/** The server's key fingerprint as OpenSSH prints it. */
function serverFingerprint(): string {
  const out = spawnSync("ssh-keygen", ["-l", "-f", join(sshd.dir, "host_key.pub")], { encoding: "utf8" }).stdout;
  return out.split(" ")[1]!;
}

function knownHosts(text: string): string {
  const file = join(sshd.dir, `known_hosts-${randomBytes(3).toString("hex")}`);
  writeFileSync(file, text);
  return file;
}

async function connectWith(settings: Record<string, unknown>) {
  const ops = await createSshOps(SshSettingsSchema.parse({ ...sshd.settings(root), ...settings }));
  await ops.close();
}

describe("host keys over a real connection", () => {
  it("connects when known_hosts holds the server's key", async () => {
    await expect(connectWith({})).resolves.toBeUndefined();
  });

  it("refuses a changed key, naming the fingerprint the server presents and the line that holds another", async () => {
    const other = knownHosts(`[127.0.0.1]:${sshd.port} ssh-ed25519 ${"A".repeat(68)}\n`);
    const refused = connectWith({ knownHostsFile: other });
    await expect(refused).rejects.toThrow(
      `The host key of [127.0.0.1]:${sshd.port} has CHANGED: the server presents ssh-ed25519 key ` +
        `${serverFingerprint()}, but ${other} line 1 holds another key for it.`,
    );
    await expect(refused).rejects.toThrow(`ssh-keygen -R '[127.0.0.1]:${sshd.port}' -f ${other}`);
  });

  it("refuses an unknown host, naming its fingerprint and how to add it", async () => {
    const empty = knownHosts("");
    await expect(connectWith({ knownHostsFile: empty })).rejects.toThrow(
      `The host [127.0.0.1]:${sshd.port} is not known: its ssh-ed25519 key ${serverFingerprint()} is not in ${empty}`,
    );
    await expect(connectWith({ knownHostsFile: join(sshd.dir, "missing") })).rejects.toThrow(serverFingerprint());
  });

  it("reaches a Host alias of the SSH config file: its HostName, Port, User, IdentityFile, known_hosts", async () => {
    const config = join(sshd.dir, "ssh_config");
    writeFileSync(
      config,
      [
        "Host devbox",
        "  HostName 127.0.0.1",
        `  Port ${sshd.port}`,
        `  User ${sshd.user}`,
        `  IdentityFile ${sshd.identityFile}`,
        `  UserKnownHostsFile ${sshd.knownHostsFile}`,
        "",
      ].join("\n"),
    );
    const ops = await createSshOps(SshSettingsSchema.parse({ host: "devbox", root, configFile: config }));
    try {
      expect(ops.where).toBe(`${sshd.user}@127.0.0.1:${sshd.port}${root}`);
    } finally {
      await ops.close();
    }
  });
});

describe("the SSH agent", () => {
  it("logs keel in with the agent's key, and the remote commands never get the agent", async () => {
    const socket = join(sshd.dir, "agent.sock");
    const agent = spawn("ssh-agent", ["-D", "-a", socket], { stdio: "ignore" });
    const before = process.env.SSH_AUTH_SOCK;
    try {
      while (spawnSync("ssh-add", ["-l"], { env: { SSH_AUTH_SOCK: socket } }).status === 2)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(spawnSync("ssh-add", [sshd.identityFile], { env: { SSH_AUTH_SOCK: socket } }).status).toBe(0);
      process.env.SSH_AUTH_SOCK = socket;
      const settings = { ...sshd.settings(root), identityFile: undefined, configFile: join(sshd.dir, "none") };
      const ops = await createSshOps(SshSettingsSchema.parse(settings));
      try {
        let output = "";
        const command = ops.spawn('echo "${SSH_AUTH_SOCK:-no agent}"', {
          onData: (chunk) => (output += Buffer.from(chunk).toString()),
        });
        expect(await command.exited).toEqual({ code: 0, signal: null });
        expect(output).toBe("no agent\n");
      } finally {
        await ops.close();
      }
    } finally {
      if (before === undefined) delete process.env.SSH_AUTH_SOCK;
      else process.env.SSH_AUTH_SOCK = before;
      agent.kill();
    }
  });
});

describe("reading known_hosts", () => {
  const key = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from("ssh-ed25519"), randomBytes(36)]);
  const line = (hosts: string) => `${hosts} ssh-ed25519 ${key.toString("base64")}\n`;
  const check = (text: string, port = 22) => checkHostKey(knownHosts(text), ["dev.example"], port, key);

  it("matches plain names, [host]:port, wildcards and hashed names; a negated pattern excludes", () => {
    expect(check(line("other,dev.example"))).toBeUndefined();
    expect(check(line("[dev.example]:2222"), 2222)).toBeUndefined();
    expect(check(line("*.example"))).toBeUndefined();
    const salt = randomBytes(20);
    const hash = createHmac("sha1", salt).update("dev.example").digest("base64");
    expect(check(line(`|1|${salt.toString("base64")}|${hash}`))).toBeUndefined();
    expect(check(line("*.example,!dev.example"))).toMatch(/is not known/);
    expect(check(line("dev.example"), 2222)).toMatch(/is not known/);
  });

  it("refuses a key marked @revoked, and prints fingerprints as OpenSSH does", () => {
    expect(check(`@revoked ${line("dev.example")}`)).toMatch(/is marked @revoked/);
    expect(fingerprint(key)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});
