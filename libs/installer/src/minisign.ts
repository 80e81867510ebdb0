/**
 * minisign's key and signature files, read and written with node:crypto's Ed25519 and BLAKE2b-512: the format
 * catalog owners already use (the `minisign` binary, rsign2, signify-compatible tooling), so a catalog signed
 * by either is verified by the other. Only unencrypted secret keys (`minisign -G -W`, `keel market keygen`)
 * are read: keel does not ask for passwords, and an encrypted key is refused with how to sign instead.
 * Format: https://jedisct1.github.io/minisign/ (public key `Ed`+id+key; signature `ED`+id+sig over the
 * BLAKE2b-512 of the file, then a global signature over the signature and the trusted comment).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";

/** A signature, key or key file keel cannot use; the message says which and why. */
export class SignatureError extends Error {}

export interface PublicKey {
  /** The 8-byte key id, as minisign prints it (hex of the little-endian number). */
  id: string;
  /** The Ed25519 public key. */
  key: Buffer;
  /** The base64 line of a minisign public key file: what users pass and keel pins. */
  text: string;
}

export interface Signature {
  /** `ED` (the file's BLAKE2b-512 is signed, minisign's default) or `Ed` (the file itself, legacy). */
  algorithm: "ED" | "Ed";
  keyId: string;
  signature: Buffer;
  trustedComment: string;
  globalSignature: Buffer;
}

const idText = (bytes: Buffer) => Buffer.from(bytes).reverse().toString("hex").toUpperCase();
const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** A public key: a minisign `.pub` file's text, or its base64 line alone. */
export function parsePublicKey(text: string): PublicKey {
  const line = lines(text).find((l) => !l.startsWith("untrusted comment:")) ?? "";
  const raw = Buffer.from(line, "base64");
  if (raw.length !== 42 || raw.subarray(0, 2).toString("latin1") !== "Ed" || raw.toString("base64") !== line)
    throw new SignatureError(`"${line.slice(0, 60)}" is not a minisign public key (a base64 line starting RW)`);
  return { id: idText(raw.subarray(2, 10)), key: raw.subarray(10), text: line };
}

/** An SSH-style fingerprint of the key: what the user compares with the one its owner publishes. */
export function fingerprint(key: PublicKey): string {
  return `SHA256:${createHash("sha256").update(key.key).digest("base64").replace(/=+$/, "")}`;
}

export function parseSignature(text: string): Signature {
  const [untrusted, sigLine, trusted, globalLine] = lines(text);
  if (!untrusted?.startsWith("untrusted comment:") || !trusted?.startsWith("trusted comment: ") || !globalLine)
    throw new SignatureError("the signature file is not in minisign's format (four lines, two comments)");
  const raw = Buffer.from(sigLine ?? "", "base64");
  const algorithm = raw.subarray(0, 2).toString("latin1");
  if (raw.length !== 74 || (algorithm !== "ED" && algorithm !== "Ed"))
    throw new SignatureError("the signature file holds no Ed25519 signature minisign writes");
  const globalSignature = Buffer.from(globalLine, "base64");
  if (globalSignature.length !== 64) throw new SignatureError("the signature file's comment signature is malformed");
  return {
    algorithm,
    keyId: idText(raw.subarray(2, 10)),
    signature: raw.subarray(10),
    trustedComment: trusted.slice("trusted comment: ".length),
    globalSignature,
  };
}

const publicKeyObject = (key: Buffer) =>
  createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key.toString("base64url") }, format: "jwk" });
const signed = (algorithm: "ED" | "Ed", data: Buffer) =>
  algorithm === "ED" ? createHash("blake2b512").update(data).digest() : data;

/**
 * Checks `signatureText` over `data` with `key`; returns the signature (its trusted comment is now
 * authentic) or throws naming what failed: another key, the file, or the comment.
 */
export function verifySignature(data: Buffer, signatureText: string, key: PublicKey): Signature {
  const sig = parseSignature(signatureText);
  if (sig.keyId !== key.id) throw new SignatureError(`it is signed by the key ${sig.keyId}, not by ${key.id}`);
  const object = publicKeyObject(key.key);
  if (!verify(null, signed(sig.algorithm, data), object, sig.signature))
    throw new SignatureError(`its signature does not match its content (key ${key.id}): it was changed or corrupted`);
  const global = Buffer.concat([sig.signature, Buffer.from(sig.trustedComment, "utf8")]);
  if (!verify(null, global, object, sig.globalSignature))
    throw new SignatureError(`its signature's trusted comment was changed (key ${key.id})`);
  return sig;
}

export interface SecretKey {
  id: Buffer;
  seed: Buffer;
  publicKey: Buffer;
}

/** An unencrypted minisign secret key file. */
export function parseSecretKey(text: string, where: string): SecretKey {
  const line = lines(text).find((l) => !l.startsWith("untrusted comment:")) ?? "";
  const raw = Buffer.from(line, "base64");
  if (raw.length !== 158 || raw.subarray(0, 2).toString("latin1") !== "Ed")
    throw new SignatureError(`${where} is not a minisign secret key`);
  if (raw.readUInt16BE(2) !== 0)
    throw new SignatureError(
      `${where} is encrypted with a password, which keel does not ask for; sign with \`minisign -Sm <file>\`, ` +
        "or use a key made by `keel market keygen` (or `minisign -G -W`)",
    );
  return { id: raw.subarray(54, 62), seed: raw.subarray(62, 94), publicKey: raw.subarray(94, 126) };
}

/** Signs `data` as `minisign -S` does (prehashed); the trusted comment is signed too. */
export function signData(data: Buffer, secret: SecretKey, trustedComment: string): string {
  const object = createPrivateKey({
    key: {
      kty: "OKP",
      crv: "Ed25519",
      x: secret.publicKey.toString("base64url"),
      d: secret.seed.toString("base64url"),
    },
    format: "jwk",
  });
  if (/[\r\n]/.test(trustedComment)) throw new SignatureError("a trusted comment is one line");
  const signature = sign(null, signed("ED", data), object);
  const global = sign(null, Buffer.concat([signature, Buffer.from(trustedComment, "utf8")]), object);
  const line = Buffer.concat([Buffer.from("ED", "latin1"), secret.id, signature]).toString("base64");
  return (
    `untrusted comment: signature from keel secret key ${idText(secret.id)}\n${line}\n` +
    `trusted comment: ${trustedComment}\n${global.toString("base64")}\n`
  );
}

/** A new key pair as minisign's files: the public key to publish and an unencrypted secret key to keep. */
export function generateKeyPair(): { publicText: string; secretText: string; id: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pub = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url");
  const seed = Buffer.from(privateKey.export({ format: "jwk" }).d!, "base64url");
  const id = createHash("sha256").update(pub).digest().subarray(0, 8);
  const pubLine = Buffer.concat([Buffer.from("Ed", "latin1"), id, pub]).toString("base64");
  // kdf "none" and a zero checksum, as `minisign -G -W` writes an unencrypted key.
  const secret = Buffer.concat([
    Buffer.from("Ed\0\0B2", "latin1"),
    Buffer.alloc(48),
    id,
    seed,
    pub,
    Buffer.alloc(32),
  ]).toString("base64");
  const name = idText(id);
  return {
    publicText: `untrusted comment: minisign public key ${name}\n${pubLine}\n`,
    secretText: `untrusted comment: keel unencrypted secret key ${name}\n${secret}\n`,
    id: name,
  };
}
