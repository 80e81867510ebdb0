/**
 * Files: bytes round-trip exactly (text as UTF-8, anything else untouched), writes are atomic and make their
 * folders, stat/list/mkdir/remove behave as the contract says, and missing files keep Node's error codes.
 */
import { randomBytes } from "node:crypto";
import { assert, assertRefused, caught, decode, encode } from "./check.js";
import type { OpsCase } from "./types.js";

/** Every byte value, then sequences that are not UTF-8 (a lone continuation, a cut sequence, Latin-1). */
const NOT_UTF8 = new Uint8Array([
  ...Array.from({ length: 256 }, (_, i) => i),
  0x80,
  0xc3,
  0x28,
  0xe2,
  0x82,
  0x63,
  0x61,
  0x66,
  0xe9,
  0x0d,
  0x0a,
  0xef,
  0xbb,
  0xbf,
  0x00,
]);

export const fileCases: OpsCase[] = [
  {
    name: "names its workspace by its absolute real path",
    async run({ ops, root }) {
      assert.equal(ops.cwd, `${root}/ws`);
      assert.equal(await ops.resolve("a/b.txt", "read"), `${root}/ws/a/b.txt`);
    },
  },
  {
    name: "writes bytes that are not UTF-8 and reads them back exactly, both ways",
    async run({ ops, files }) {
      await ops.writeFile("latin.bin", NOT_UTF8);
      assert.deepEqual(await files.read("ws/latin.bin"), NOT_UTF8);
      await files.write("ws/seeded.bin", NOT_UTF8);
      assert.deepEqual(await ops.readFile("seeded.bin"), NOT_UTF8);
    },
  },
  {
    name: "writes a string as UTF-8, line endings and byte-order mark untouched",
    async run({ ops, files }) {
      const text = "\ufeffhéllo ✓ 😀\r\nnext\n";
      await ops.writeFile("text.txt", text);
      assert.deepEqual(await files.read("ws/text.txt"), encode(text));
      assert.equal(decode(await ops.readFile("text.txt")), text);
    },
  },
  {
    name: "round-trips a 3 MB file of random bytes",
    async run({ ops, files }) {
      const data = new Uint8Array(randomBytes(3 * 1024 * 1024));
      await ops.writeFile("big.bin", data);
      assert.ok(Buffer.from(data).equals(Buffer.from((await files.read("ws/big.bin"))!)));
      assert.ok(Buffer.from(data).equals(Buffer.from(await ops.readFile("big.bin"))));
    },
  },
  {
    name: "reads an empty file as no bytes",
    async run({ ops, files }) {
      await files.write("ws/empty.txt", "");
      assert.equal((await ops.readFile("empty.txt")).length, 0);
    },
  },
  {
    name: "writes atomically: makes the parent folders, replaces the old content whole, leaves no temp file",
    async run({ ops, files }) {
      await ops.writeFile("new/deep/file.txt", "a longer first version\n");
      await ops.writeFile("new/deep/file.txt", encode("two"));
      assert.equal(decode((await files.read("ws/new/deep/file.txt"))!), "two");
      assert.deepEqual(await files.list("ws/new/deep"), ["file.txt"]);
    },
  },
  {
    name: "stats files and folders, and says undefined for a missing path",
    async run({ ops, files }) {
      await files.write("ws/sub/seven.txt", "1234567");
      const file = await ops.stat("sub/seven.txt");
      assert.equal(file?.kind, "file");
      assert.equal(file?.size, 7);
      assert.ok(file!.mtimeMs > 0);
      assert.equal((await ops.stat("sub"))?.kind, "directory");
      assert.equal((await ops.stat("."))?.kind, "directory");
      assert.equal(await ops.stat("no-such-file"), undefined);
      assert.equal(await ops.stat("no-such-folder/file"), undefined);
    },
  },
  {
    name: "lists a folder's entries with their kinds",
    async run({ ops, files }) {
      await files.write("ws/sub/a.txt", "a");
      await files.mkdir("ws/sub/inner");
      const entries = (await ops.list("sub")).sort((x, y) => x.name.localeCompare(y.name));
      assert.deepEqual(entries, [
        { name: "a.txt", kind: "file" },
        { name: "inner", kind: "directory" },
      ]);
    },
  },
  {
    name: "keeps Node's error codes: ENOENT, EISDIR, ENOTDIR",
    async run({ ops, files }) {
      await files.write("ws/f.txt", "x");
      await files.mkdir("ws/dir");
      assert.equal(((await caught(() => ops.readFile("missing.txt"))) as NodeJS.ErrnoException).code, "ENOENT");
      assert.equal(((await caught(() => ops.readFile("dir"))) as NodeJS.ErrnoException).code, "EISDIR");
      assert.equal(((await caught(() => ops.list("f.txt"))) as NodeJS.ErrnoException).code, "ENOTDIR");
      assert.equal(((await caught(() => ops.list("missing"))) as NodeJS.ErrnoException).code, "ENOENT");
    },
  },
  {
    name: "makes nested folders, and an existing one again without an error",
    async run({ ops, files }) {
      await ops.mkdir("m/n/o");
      await ops.mkdir("m/n/o");
      assert.equal((await ops.stat("m/n/o"))?.kind, "directory");
      assert.deepEqual(await files.list("ws/m/n"), ["o"]);
    },
  },
  {
    name: "removes a file, and a folder with everything in it",
    async run({ ops, files }) {
      await files.write("ws/gone.txt", "x");
      await files.write("ws/tree/a/b.txt", "x");
      await files.write("ws/tree/c.txt", "x");
      await files.write("ws/kept.txt", "x");
      await ops.remove("gone.txt");
      await ops.remove("tree");
      assert.deepEqual(await files.list("ws"), ["kept.txt"]);
    },
  },
  {
    name: "refuses to remove the workspace itself",
    async run({ ops, files }) {
      await files.write("ws/kept.txt", "x");
      assertRefused(await caught(() => ops.remove(".")), ".");
      assert.deepEqual(await files.list("ws"), ["kept.txt"]);
    },
  },
];
