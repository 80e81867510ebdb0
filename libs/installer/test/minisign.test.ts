/**
 * keel's minisign files against the `minisign` binary (Debian's package): a file it signs keel verifies, a
 * file keel signs with a key it made minisign verifies, and every tampering is caught.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  generateKeyPair,
  parsePublicKey,
  parseSecretKey,
  signData,
  SignatureError,
  verifySignature,
} from "../src/minisign.ts";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";

const minisign = (cwd: string, ...args: string[]) =>
  execFileSync("minisign", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("minisign files", () => {
  it("verifies what the minisign binary signs, and refuses it once the file changes", () => {
    const dir = tempDir("keel-minisign-");
    minisign(dir, "-G", "-W", "-p", "k.pub", "-s", "k.key");
    writeFileSync(join(dir, "marketplace.json"), '{"name":"acme"}\n');
    minisign(dir, "-S", "-s", "k.key", "-m", "marketplace.json", "-t", "timestamp:1700000000\tfile:x");
    const key = parsePublicKey(readFileSync(join(dir, "k.pub"), "utf8"));
    const sig = readFileSync(join(dir, "marketplace.json.minisig"), "utf8");
    expect(verifySignature(readFileSync(join(dir, "marketplace.json")), sig, key).trustedComment).toBe(
      "timestamp:1700000000\tfile:x",
    );
    expect(() => verifySignature(Buffer.from('{"name":"evil"}\n'), sig, key)).toThrow(
      /signature does not match its content/,
    );
  });

  it("signs with a key it made, and the minisign binary verifies it", () => {
    const dir = tempDir("keel-minisign-");
    const pair = generateKeyPair();
    writeFileSync(join(dir, "k.pub"), pair.publicText);
    writeFileSync(join(dir, "f.json"), "[1,2,3]\n");
    const secret = parseSecretKey(pair.secretText, "k.key");
    writeFileSync(join(dir, "f.json.minisig"), signData(readFileSync(join(dir, "f.json")), secret, "timestamp:5"));
    expect(minisign(dir, "-V", "-p", "k.pub", "-m", "f.json")).toContain("Trusted comment: timestamp:5");
    // The secret key file is minisign's too: the binary signs with it.
    writeFileSync(join(dir, "k.key"), pair.secretText);
    minisign(dir, "-S", "-s", "k.key", "-m", "f.json", "-x", "other.minisig");
    const key = parsePublicKey(pair.publicText);
    expect(() =>
      verifySignature(readFileSync(join(dir, "f.json")), readFileSync(join(dir, "other.minisig"), "utf8"), key),
    ).not.toThrow();
  });

  it("refuses another key's signature, a changed trusted comment, and an encrypted secret key", () => {
    const a = generateKeyPair();
    const b = generateKeyPair();
    const data = Buffer.from("catalog");
    const sig = signData(data, parseSecretKey(a.secretText, "a"), "timestamp:1");
    expect(() => verifySignature(data, sig, parsePublicKey(b.publicText))).toThrow(
      new SignatureError(`it is signed by the key ${a.id}, not by ${b.id}`),
    );
    const forged = sig.replace("trusted comment: timestamp:1", "trusted comment: timestamp:9");
    expect(() => verifySignature(data, forged, parsePublicKey(a.publicText))).toThrow(/trusted comment was changed/);
    // What `minisign -G` writes with a password: the kdf field names scrypt ("Sc").
    const raw = Buffer.from(a.secretText.split("\n")[1]!, "base64");
    raw.write("Sc", 2, "latin1");
    const encrypted = `untrusted comment: minisign encrypted secret key\n${raw.toString("base64")}\n`;
    expect(() => parseSecretKey(encrypted, "k.key")).toThrow(/encrypted with a password/);
  });
});
