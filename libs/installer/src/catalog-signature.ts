/**
 * What a catalog's signature means to keel. `market add` pins the key that signs the catalog (given with
 * `--key`, or the owner's `minisign.pub` beside it, shown to the user as a fingerprint); every `market update`
 * then needs a valid signature by that key, and no older than the last one (a replayed catalog would bring
 * back versions since blocked). A changed key is refused until the user accepts it by its id. A catalog
 * added unsigned is pinned the first time it comes signed.
 */
import { RefusedError } from "./check.ts";
import type { FetchedCatalog } from "./catalog-fetch.ts";
import {
  fingerprint,
  parsePublicKey,
  parseSignature,
  SignatureError,
  verifySignature,
  type PublicKey,
} from "./minisign.ts";

/** The key a catalog's record is pinned to. */
export interface PinnedKey {
  /** The minisign public key (its base64 line). */
  publicKey: string;
  id: string;
  fingerprint: string;
  /** The `timestamp:` of the last verified signature's trusted comment, in seconds. */
  signedAt?: number;
}

const timestampOf = (comment: string) => {
  const m = /(?:^|\t)timestamp:(\d+)/.exec(comment);
  return m ? Number(m[1]) : undefined;
};

function readKey(text: string, what: string): PublicKey {
  try {
    return parsePublicKey(text);
  } catch (error) {
    throw new RefusedError(`${what}: ${(error as Error).message}`);
  }
}

function verified(fetched: FetchedCatalog, key: PublicKey, where: string): PinnedKey {
  try {
    const sig = verifySignature(fetched.data, fetched.signature!, key);
    return {
      publicKey: key.text,
      id: key.id,
      fingerprint: fingerprint(key),
      signedAt: timestampOf(sig.trustedComment),
    };
  } catch (error) {
    if (!(error instanceof SignatureError)) throw error;
    throw new RefusedError(`the catalog ${where} is refused: ${error.message}. Nothing was changed.`);
  }
}

/**
 * At `market add`: the key to pin (undefined for an unsigned catalog). `given` is the user's `--key`; a
 * catalog with a signature but no key to check it by, or a key but no signature, is refused.
 */
export function keyAtAdd(fetched: FetchedCatalog, where: string, given?: string): PinnedKey | undefined {
  if (!fetched.signature) {
    if (given)
      throw new RefusedError(
        `the catalog ${where} has no signature (${where}.minisig), but --key expects one; nothing was added`,
      );
    return undefined;
  }
  const text = given ?? fetched.publicKey;
  if (!text)
    throw new RefusedError(
      `the catalog ${where} is signed, but there is no minisign.pub beside it; ask its owner for the public key ` +
        "and add it with --key <key or file>",
    );
  return verified(fetched, readKey(text, given ? "--key" : `the minisign.pub beside ${where}`), where);
}

export interface KeyDecision {
  key?: PinnedKey;
  /** What to tell the user (a key pinned for the first time, a key accepted). */
  notice?: string;
}

/**
 * At `market update`: the catalog must be signed by the pinned key. `accept` is the id (or public key) of a new
 * key the user accepts deliberately (`--accept-key`).
 */
export function keyAtUpdate(
  fetched: FetchedCatalog,
  pinned: PinnedKey | undefined,
  who: { name: string; command: string },
  accept?: string,
): KeyDecision {
  const name = `"${who.name}"`;
  if (!fetched.signature) {
    if (!pinned) return {};
    throw new RefusedError(
      `the catalog ${name} is no longer signed, but it was signed by the key ${pinned.id} when you added it; ` +
        "it was not updated. Ask its owner; to stop checking, remove the catalog and add it again.",
    );
  }
  let signer: string;
  try {
    signer = parseSignature(fetched.signature).keyId;
  } catch (error) {
    throw new RefusedError(`the catalog ${name} is refused: ${(error as Error).message}. Nothing was changed.`);
  }
  if (pinned && signer === pinned.id) {
    const next = verified(fetched, readKey(pinned.publicKey, "the pinned key"), name);
    if (pinned.signedAt !== undefined && next.signedAt !== undefined && next.signedAt < pinned.signedAt)
      throw new RefusedError(
        `the catalog ${name} is signed earlier (${iso(next.signedAt)}) than the copy you have ` +
          `(${iso(pinned.signedAt)}): an old catalog served again could bring back versions blocked since. ` +
          "It was not updated.",
      );
    return { key: next };
  }
  const offered = offeredKey(fetched, signer, accept);
  if (pinned && !(accept && offered && (accept === offered.id || accept === offered.text)))
    throw new RefusedError(changedKeyMessage(who, pinned, signer, offered));
  if (!offered)
    throw new RefusedError(
      `the catalog ${name} is signed by the key ${signer}, and no public key with that id is beside it; ` +
        "give it with --accept-key <public key> after checking it with the catalog's owner",
    );
  const key = verified(fetched, offered, name);
  return {
    key,
    notice: pinned
      ? `accepted the new key ${key.id} (${key.fingerprint}) for the catalog ${name}`
      : `the catalog ${name} is now signed; pinned its key ${key.id} (${key.fingerprint})`,
  };
}

/** The public key the catalog offers for `signer`: one the user passed to --accept-key, or its minisign.pub. */
function offeredKey(fetched: FetchedCatalog, signer: string, accept?: string): PublicKey | undefined {
  for (const text of [accept, fetched.publicKey]) {
    if (!text || !/RW[A-Za-z0-9+/=]{50,}/.test(text)) continue;
    const key = readKey(text, "the new key");
    if (key.id === signer) return key;
  }
  return undefined;
}

function changedKeyMessage(
  who: { name: string; command: string },
  pinned: PinnedKey,
  signer: string,
  offered?: PublicKey,
): string {
  const fp = offered ? ` (${fingerprint(offered)})` : "";
  return (
    `the catalog "${who.name}" is now signed by the key ${signer}${fp}, not by the key ${pinned.id} ` +
    `(${pinned.fingerprint}) pinned when you added it; it was not updated. If its owner tells you the key ` +
    `changed and the fingerprint matches, accept it with \`${who.command} market update ${who.name} ` +
    `--accept-key ${offered ? signer : "<new public key>"}\``
  );
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
