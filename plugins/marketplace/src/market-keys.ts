/**
 * A catalog owner's side of signing: `market keygen [folder]` makes a minisign key pair (the public key to
 * publish beside the catalog as minisign.pub, the secret key to keep), `market sign <file>` writes
 * `<file>.minisig` after checking that the file is a catalog keel reads. Both files are minisign's, so the
 * `minisign` tool can sign and verify them too.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import {
  fingerprint,
  generateKeyPair,
  parseCatalog,
  parsePublicKey,
  parseSecretKey,
  PUBLIC_KEY_FILE,
  signData,
} from "@keel/installer";
import { UsageError } from "./scope.ts";

const SECRET_KEY_FILE = "minisign.key";

export async function keygen(folder: string | undefined, context: CliContext): Promise<number> {
  const dir = resolve(context.cwd, folder ?? ".");
  const pub = join(dir, PUBLIC_KEY_FILE);
  const secret = join(dir, SECRET_KEY_FILE);
  for (const file of [pub, secret])
    if (existsSync(file)) throw new UsageError(`${file} exists; keel does not overwrite a key`);
  mkdirSync(dir, { recursive: true });
  const pair = generateKeyPair();
  writeFileSync(secret, pair.secretText, { mode: 0o600, flag: "wx" });
  writeFileSync(pub, pair.publicText, { flag: "wx" });
  const key = parsePublicKey(pair.publicText);
  context.stdout(
    `made the key ${pair.id} (${fingerprint(key)})\n  public: ${pub} (publish it beside your catalog)\n` +
      `  secret: ${secret} (keep it private; it is not encrypted)\n` +
      `sign with \`${context.command} market sign marketplace.json --key ${secret}\`\n`,
  );
  return 0;
}

export async function signCatalog(file: string, keyFile: string | undefined, context: CliContext): Promise<number> {
  const path = resolve(context.cwd, file);
  const data = readFileSync(path);
  parseCatalog(data.toString("utf8"), path);
  const keyPath = resolve(context.cwd, keyFile ?? SECRET_KEY_FILE);
  let keyText: string;
  try {
    keyText = readFileSync(keyPath, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read the secret key ${keyPath} (${(error as NodeJS.ErrnoException).code}); --key <file>`,
    );
  }
  const secret = parseSecretKey(keyText, keyPath);
  const comment = `timestamp:${Math.floor(Date.now() / 1000)}\tfile:${basename(path)}\thashed`;
  writeFileSync(`${path}.minisig`, signData(data, secret, comment));
  context.stdout(`signed ${path} → ${path}.minisig\n`);
  return 0;
}
