/**
 * Signed catalogs through the real binary: an owner makes a key and signs (`market keygen`, `market sign`),
 * `market add` pins the key and shows its fingerprint, and `market update` refuses a bad signature, a missing
 * one, an older one and another key — keeping the copy it had — until a new key is accepted by its id.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair, parseSecretKey, signData } from "@keel/installer";
import { marketEnv, type MarketEnv } from "./support/market-env.ts";

const owner = { name: "Keel Tests" };

/** A catalog folder listing `names`, owned by a key made with `market keygen` in `<folder>/keys`. */
async function ownerSetup(env: MarketEnv) {
  const dir = join(env.fixtures, "acme");
  mkdirSync(dir, { recursive: true });
  const keys = join(env.fixtures, "keys");
  const made = await env.keel(["market", "keygen", keys]);
  expect(made.code).toBe(0);
  copyFileSync(join(keys, "minisign.pub"), join(dir, "minisign.pub"));
  const write = async (names: string[], sign = true) => {
    const plugins = names.map((name) => ({ name, source: `npm:${name}` }));
    writeFileSync(join(dir, "marketplace.json"), JSON.stringify({ name: "acme", owner, plugins }, null, 2));
    if (sign) {
      const run = await env.keel([
        "market",
        "sign",
        join(dir, "marketplace.json"),
        "--key",
        join(keys, "minisign.key"),
      ]);
      expect(run.code).toBe(0);
    }
  };
  const id = /made the key ([0-9A-F]{16}) \((SHA256:[^)]+)\)/.exec(made.stdout)!;
  return { dir, keys, write, id: id[1]!, fingerprint: id[2]! };
}

describe("signed catalogs", () => {
  it("pins the key at add, showing its fingerprint, and updates while the same key signs", async () => {
    const env = marketEnv();
    const owner = await ownerSetup(env);
    await owner.write(["kp-one"]);
    const added = await env.keel(["market", "add", owner.dir]);
    expect(added.stdout).toContain(`signed by the key ${owner.id} (${owner.fingerprint}); pinned`);
    expect((await env.keel(["market", "list"])).stdout).toContain(`key ${owner.id}`);
    await owner.write(["kp-one", "kp-two"]);
    const updated = await env.keel(["market", "update"]);
    expect(updated.stdout).toBe('updated the catalog "acme" (2 plugins)\n');
    expect(updated.code).toBe(0);
  });

  it("refuses a catalog changed after signing, at add and at update, and keeps the copy it had", async () => {
    const env = marketEnv();
    const owner = await ownerSetup(env);
    await owner.write(["kp-one"]);
    const file = join(owner.dir, "marketplace.json");
    const signed = readFileSync(file, "utf8");
    writeFileSync(file, signed.replace("kp-one", "kp-evil"));
    const refused = await env.keel(["market", "add", owner.dir]);
    expect(refused.stderr).toContain("its signature does not match its content");
    expect(refused.code).toBe(1);
    expect((await env.keel(["market", "list"])).stdout).toBe("");

    writeFileSync(file, signed);
    expect((await env.keel(["market", "add", owner.dir])).code).toBe(0);
    writeFileSync(file, signed.replace("kp-one", "kp-evil"));
    const update = await env.keel(["market", "update"]);
    expect(update.stderr).toContain(
      `the catalog "acme" is refused: its signature does not match its content (key ${owner.id})`,
    );
    expect(update.code).toBe(1);
    expect((await env.keel(["search", "kp"])).stdout).toBe("kp-one@acme  \n");
  });

  it("refuses a catalog no longer signed, and one signed earlier than the copy it has", async () => {
    const env = marketEnv();
    const owner = await ownerSetup(env);
    await owner.write(["kp-one"]);
    const file = join(owner.dir, "marketplace.json");
    const oldSignature = readFileSync(`${file}.minisig`, "utf8");
    expect((await env.keel(["market", "add", owner.dir])).code).toBe(0);
    await owner.write(["kp-one", "kp-two"], false);
    writeFileSync(`${file}.minisig`, "");
    const unsigned = await env.keel(["market", "update"]);
    expect(unsigned.stderr).toContain(
      `the catalog "acme" is no longer signed, but it was signed by the key ${owner.id}`,
    );
    expect(unsigned.code).toBe(1);

    // A newer signed copy is taken; the old one served again afterwards is a replay.
    const secret = parseSecretKey(readFileSync(join(owner.keys, "minisign.key"), "utf8"), "key");
    const stamp = (s: number) =>
      writeFileSync(`${file}.minisig`, signData(readFileSync(file), secret, `timestamp:${s}`));
    stamp(Math.floor(Date.now() / 1000) + 60);
    expect((await env.keel(["market", "update"])).code).toBe(0);
    await owner.write(["kp-one"], false);
    writeFileSync(`${file}.minisig`, oldSignature);
    const replay = await env.keel(["market", "update"]);
    expect(replay.stderr).toMatch(/the catalog "acme" is signed earlier \(.*\) than the copy you have/);
    expect(replay.code).toBe(1);
  });

  it("refuses a catalog signed by another key, saying how to accept it, and accepts it by its id", async () => {
    const env = marketEnv();
    const owner = await ownerSetup(env);
    await owner.write(["kp-one"]);
    expect((await env.keel(["market", "add", owner.dir])).code).toBe(0);
    const next = generateKeyPair();
    writeFileSync(join(owner.dir, "minisign.pub"), next.publicText);
    const file = join(owner.dir, "marketplace.json");
    writeFileSync(`${file}.minisig`, signData(readFileSync(file), parseSecretKey(next.secretText, "k"), "timestamp:1"));

    const refused = await env.keel(["market", "update"]);
    expect(refused.stderr).toContain(`the catalog "acme" is now signed by the key ${next.id} (SHA256:`);
    expect(refused.stderr).toContain(`not by the key ${owner.id} (${owner.fingerprint}) pinned when you added it`);
    expect(refused.stderr).toContain(`accept it with \`keel market update acme --accept-key ${next.id}\``);
    expect(refused.code).toBe(1);
    // Adding it again does not replace the pinned key either.
    expect((await env.keel(["market", "add", owner.dir])).stderr).toContain("pinned when you added it");

    const accepted = await env.keel(["market", "update", "acme", "--accept-key", next.id]);
    expect(accepted.stdout).toContain(`accepted the new key ${next.id}`);
    expect(accepted.code).toBe(0);
    expect((await env.keel(["market", "list"])).stdout).toContain(`key ${next.id}`);
  });

  it("pins a key given with --key, and refuses a signed catalog with no key to check it by", async () => {
    const env = marketEnv();
    const owner = await ownerSetup(env);
    await owner.write(["kp-one"]);
    const other = generateKeyPair();
    const wrong = await env.keel(["market", "add", owner.dir, "--key", other.publicText.split("\n")[1]!]);
    expect(wrong.stderr).toContain(`it is signed by the key ${owner.id}, not by ${other.id}`);
    expect(wrong.code).toBe(1);
    writeFileSync(join(owner.dir, "minisign.pub"), "");
    const noKey = await env.keel(["market", "add", owner.dir]);
    expect(noKey.stderr).toContain("is signed, but there is no minisign.pub beside it");
    const given = await env.keel(["market", "add", owner.dir, "--key", join(owner.keys, "minisign.pub")]);
    expect(given.stdout).toContain(`signed by the key ${owner.id}`);
  });
});
