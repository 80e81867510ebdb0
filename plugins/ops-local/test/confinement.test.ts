import { existsSync, readdirSync, readFileSync, renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LocalOps } from "../src/local-ops.ts";
import { makeWorld, SECRET, type World } from "./fixture.ts";

interface Attempt {
  label: string;
  /** The path the caller asked for, which the error must name. */
  path: string | ((w: World) => string);
  run(ops: LocalOps, path: string): Promise<unknown> | unknown;
}

const read = (path: string, label = `reads ${JSON.stringify(path)}`): Attempt => ({
  label,
  path,
  run: (ops, p) => ops.readFile(p),
});
const write = (path: string, label = `writes ${JSON.stringify(path)}`): Attempt => ({
  label,
  path,
  run: (ops, p) => ops.writeFile(p, "pwned"),
});
const list = (path: string, label = `lists ${JSON.stringify(path)}`): Attempt => ({
  label,
  path,
  run: (ops, p) => ops.list(p),
});

const ATTEMPTS: Attempt[] = [
  // `..` and absolute paths, judged by their text
  read("../outside/secret.txt"),
  write("../outside/secret.txt"),
  list(".."),
  list("../"),
  read("sub/../../outside/secret.txt"),
  list("./../outside"),
  read("sub/./../.././outside/secret.txt"),
  read("sub/deeper/../../../../../../../etc/passwd"),
  read("/etc/passwd"),
  list("/"),
  read("//etc//passwd"),
  read("~/../../outside/secret.txt"),
  {
    label: "reads the outside file by its absolute path",
    path: (w) => join(w.outside, "secret.txt"),
    run: (ops, p) => ops.readFile(p),
  },
  {
    label: "reads through the workspace's absolute path and ..",
    path: (w) => `${w.ws}/../outside/secret.txt`,
    run: (ops, p) => ops.readFile(p),
  },
  {
    label: "reads a sibling folder whose name starts with the workspace's",
    path: (w) => `${w.ws}2/sibling.txt`,
    run: (ops, p) => ops.readFile(p),
  },
  { label: "runs a process in the parent folder", path: "..", run: (ops, p) => ops.spawn("true", { cwd: p }) },
  // NUL bytes and lengths, judged by their text
  read("real.txt\0.png"),
  write("\0"),
  read("sub/\0/inner.txt"),
  read("a".repeat(256), "reads a name of 256 bytes"),
  read("é".repeat(128), "reads a name of 256 bytes in two-byte characters"),
  write("d/".repeat(2100), "writes a path of 4200 bytes"),
  read(
    "abcdefghi/".repeat(409).slice(0, -1),
    "reads a relative path that passes 4096 bytes once joined to the workspace",
  ),
  read("", "reads an empty path"),
  // symlinks inside the workspace that lead out
  read("link-out-file"),
  write("link-out-file"),
  read("link-out-dir/secret.txt"),
  list("link-out-dir"),
  write("link-out-dir/new.txt"),
  read("link-abs-file"),
  read("link-etc"),
  read("link-root/etc/passwd"),
  list("link-root"),
  read("chain1", "reads through a chain of three symlinks"),
  read("sub/link-up/secret.txt", "reads through a symlinked folder deeper down"),
  read("link-parent/outside/secret.txt", "reads through a symlink to the workspace's parent"),
  write("dangling-out", "writes through a dangling symlink whose target would be created outside"),
  read("dangling-out", "reads a dangling symlink that points outside"),
  write("dangling-out-dir/x.txt", "writes under a dangling symlinked folder outside"),
  write("dangle-chain", "writes through a symlink to a dangling symlink that points outside"),
  read("loop1", "reads a symlink loop"),
  { label: "makes a folder through a symlinked folder", path: "link-out-dir/newfolder", run: (ops, p) => ops.mkdir(p) },
  {
    label: "removes a file through a symlinked folder",
    path: "link-out-dir/secret.txt",
    run: (ops, p) => ops.remove(p),
  },
  {
    label: "runs a process in a symlinked folder outside",
    path: "link-out-dir",
    run: (ops, p) => ops.spawn("true", { cwd: p }),
  },
  {
    label: "resolves for writing through a symlinked folder",
    path: "link-out-dir/x",
    run: (ops, p) => ops.resolve(p, "write"),
  },
  { label: "stats a file through a symlinked folder", path: "link-out-dir/secret.txt", run: (ops, p) => ops.stat(p) },
  // allowed roots keep their access
  {
    label: "writes into a read-only allowed root",
    path: (w) => join(w.root, "ro/ref.txt"),
    run: (ops, p) => ops.writeFile(p, "x"),
  },
  write("link-to-ro/new.txt", "writes through a symlink into a read-only allowed root"),
  { label: "removes the workspace itself", path: ".", run: (ops, p) => ops.remove(p) },
];

describe("local backend confinement", () => {
  let world: World;
  beforeEach(() => {
    world = makeWorld();
  });
  afterEach(() => world.remove());

  it(`has at least 40 escape attempts (${ATTEMPTS.length})`, () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(ATTEMPTS)("refuses: $label", async (attempt) => {
    const path = typeof attempt.path === "function" ? attempt.path(world) : attempt.path;
    let caught: unknown;
    try {
      await attempt.run(world.ops, path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PathAccessError);
    expect((caught as PathAccessError).path).toBe(path);
    expect((caught as PathAccessError).message.startsWith(`Path refused: ${JSON.stringify(path)}: `)).toBe(true);
    // Nothing outside changed.
    expect(readFileSync(join(world.outside, "secret.txt"), "utf8")).toBe(SECRET);
    expect(readdirSync(world.outside).sort()).toEqual(["dir", "secret.txt"]);
    expect(readFileSync(join(world.root, "ro/ref.txt"), "utf8")).toBe("reference\n");
    expect(existsSync(join(world.root, "ro/new.txt"))).toBe(false);
  });

  it("says where a symlink leads when it leads out", async () => {
    await expect(world.ops.readFile("link-out-file")).rejects.toThrow(
      `Path refused: "link-out-file": it leads through a symlink to ${world.outside}/secret.txt, ` +
        `outside the workspace ${world.ws} and the allowed roots ${world.root}/ro, ${world.root}/rw`,
    );
  });

  it("says why a path with .. is refused", async () => {
    await expect(world.ops.readFile("../x")).rejects.toThrow(
      `Path refused: "../x": it lies outside the workspace ${world.ws} and the allowed ` +
        `roots ${world.root}/ro, ${world.root}/rw; use a path inside the workspace`,
    );
  });

  it("says why a path with a NUL byte is refused", async () => {
    await expect(world.ops.readFile("a\0b")).rejects.toThrow(
      'Path refused: "a\\u0000b": it contains a NUL byte, which no file name can hold',
    );
  });

  it("says why a read-only root cannot be written", async () => {
    await expect(world.ops.writeFile(join(world.root, "ro/x"), "")).rejects.toThrow(
      `it is inside ${world.root}/ro, an allowed root for reading only; writing there is not allowed`,
    );
  });
});

describe("local backend confinement against swaps after the check", () => {
  let world: World;
  beforeEach(() => {
    world = makeWorld();
  });
  afterEach(() => world.remove());

  /** Swaps `path` (in the workspace) for a symlink to `target`, atomically, as an attacker racing us would. */
  function swapForSymlink(path: string, target: string): void {
    const temp = `${path}.swap`;
    symlinkSync(target, temp);
    renameSync(temp, path);
  }

  /** Moves the folder `sub` of the workspace away and puts a symlink to `outside/dir` in its place. */
  function swapSubFolder(): void {
    renameSync(join(world.ws, "sub"), join(world.ws, "sub-moved"));
    symlinkSync(join(world.outside, "dir"), join(world.ws, "sub"));
  }

  it("refuses to read a file that became a symlink to outside after the check", async () => {
    const checked = world.ops.confinement.resolve("real.txt", "read");
    swapForSymlink(join(world.ws, "real.txt"), join(world.outside, "secret.txt"));
    const { readChecked } = await import("../src/read-checked.ts");
    await expect(readChecked(world.ops.confinement, "real.txt", checked)).rejects.toThrow(
      'Path refused: "real.txt": it became a symlink after it was checked; refusing to follow it',
    );
  });

  it("refuses to read through a folder that became a symlink to outside after the check", async () => {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(world.outside, "sub"));
    writeFileSync(join(world.outside, "sub/inner.txt"), SECRET);
    const checked = world.ops.confinement.resolve("sub/inner.txt", "read");
    renameSync(join(world.ws, "sub"), join(world.ws, "sub-moved"));
    symlinkSync(join(world.outside, "sub"), join(world.ws, "sub"));
    const { readChecked } = await import("../src/read-checked.ts");
    await expect(readChecked(world.ops.confinement, "sub/inner.txt", checked)).rejects.toThrow(
      new RegExp(
        String.raw`^Path refused: "sub\/inner.txt": it was changed while being opened and now leads to ` +
          String.raw`.*outside\/sub\/inner.txt, outside the workspace`,
      ),
    );
  });

  it(
    "refuses to write to a file that became a symlink to outside after the check, and writes " + "nothing there",
    async () => {
      const checked = world.ops.confinement.resolve("real.txt", "write");
      swapForSymlink(join(world.ws, "real.txt"), join(world.outside, "secret.txt"));
      const { writeChecked } = await import("../src/write-checked.ts");
      await expect(writeChecked(world.ops.confinement, "real.txt", checked, "pwned")).rejects.toThrow(
        `Path refused: "real.txt": it became a symlink to ${world.outside}/secret.txt after it was ` +
          `checked; nothing was written`,
      );
      expect(readFileSync(join(world.outside, "secret.txt"), "utf8")).toBe(SECRET);
      expect(readdirSync(world.outside).sort()).toEqual(["dir", "secret.txt"]);
    },
  );

  it("refuses to write into a folder that became a symlink to outside after the check", async () => {
    const checked = world.ops.confinement.resolve("sub/new.txt", "write");
    swapSubFolder();
    const { writeChecked } = await import("../src/write-checked.ts");
    await expect(writeChecked(world.ops.confinement, "sub/new.txt", checked, "pwned")).rejects.toThrow(
      'Path refused: "sub/new.txt": a folder on its path became a symlink after it was checked; refusing to follow it',
    );
    expect(readdirSync(join(world.outside, "dir"))).toEqual([]);
  });

  it("refuses to open a folder that became a symlink to outside after the check", async () => {
    const checked = world.ops.confinement.resolve("sub", "read");
    swapSubFolder();
    const { CheckedDir } = await import("../src/checked-dir.ts");
    expect(() => CheckedDir.open(world.ops.confinement, "sub", checked, "read")).toThrow(
      'Path refused: "sub": a folder on its path became a symlink after it was checked; refusing to follow it',
    );
  });

  it(
    "refuses a folder whose parent became a symlink to outside after the check, by where the " + "descriptor leads",
    async () => {
      const { mkdirSync } = await import("node:fs");
      mkdirSync(join(world.outside, "dir/deeper"));
      const checked = world.ops.confinement.resolve("sub/deeper", "read");
      swapSubFolder();
      const { CheckedDir } = await import("../src/checked-dir.ts");
      expect(() => CheckedDir.open(world.ops.confinement, "sub/deeper", checked, "read")).toThrow(
        new RegExp(
          String.raw`^Path refused: "sub\/deeper": it was changed while being opened and now leads to ` +
            String.raw`.*outside\/dir\/deeper, outside the workspace`,
        ),
      );
    },
  );

  it("makes no folder outside when a parent of missing folders became a symlink after the check", async () => {
    const checked = world.ops.confinement.resolve("sub/new/deep/x.txt", "write");
    swapSubFolder();
    const { writeChecked } = await import("../src/write-checked.ts");
    await expect(writeChecked(world.ops.confinement, "sub/new/deep/x.txt", checked, "pwned")).rejects.toThrow(
      "a folder on its path became a symlink after it was checked",
    );
    expect(readdirSync(join(world.outside, "dir"))).toEqual([]);
  });

  it("removes a folder holding a symlink to outside without touching what it leads to", async () => {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(world.ws, "tree/a"), { recursive: true });
    writeFileSync(join(world.ws, "tree/a/file.txt"), "x");
    symlinkSync(join(world.outside, "dir"), join(world.ws, "tree/a/out"));
    writeFileSync(join(world.outside, "dir/kept.txt"), "kept");
    await world.ops.remove("tree");
    expect(existsSync(join(world.ws, "tree"))).toBe(false);
    expect(readdirSync(join(world.outside, "dir"))).toEqual(["kept.txt"]);
  });

  it("never returns outside content while another process flips a file and a symlink during reads", async () => {
    const { spawn } = await import("node:child_process");
    const { writeFileSync } = await import("node:fs");
    const inside = join(world.ws, "flip.txt");
    writeFileSync(inside, "inside\n");
    writeFileSync(join(world.ws, "flip-real.txt"), "inside\n");
    // A real attacker: another process swapping flip.txt between a file and a symlink to the secret, nonstop.
    const script = `
      const fs = require("node:fs");
      const [path, secret, real] = process.argv.slice(1);
      let n = 0;
      process.stdout.write("ready\\n");
      for (;;) {
        const temp = path + ".swap";
        try { fs.unlinkSync(temp); } catch {}
        if (n++ % 2 === 0) fs.symlinkSync(secret, temp); else fs.copyFileSync(real, temp);
        fs.renameSync(temp, path);
      }`;
    const attacker = spawn(
      process.execPath,
      ["-e", script, inside, join(world.outside, "secret.txt"), join(world.ws, "flip-real.txt")],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise((resolve) => attacker.stdout!.once("data", resolve));
    const outcomes: string[] = [];
    try {
      // Read until both outcomes were seen (the attacker may be starved on a busy machine), within a bound.
      const sawBoth = () => outcomes.includes("refused") && outcomes.includes("inside\n");
      for (let round = 0; round < 2000 && (round < 100 || !sawBoth()); round++) {
        const batch = await Promise.all(
          Array.from({ length: 10 }, () =>
            world.ops.readFile("flip.txt").then(
              (bytes) => new TextDecoder().decode(bytes),
              (error: Error) => (error instanceof PathAccessError ? "refused" : `other: ${error.message}`),
            ),
          ),
        );
        outcomes.push(...batch);
      }
    } finally {
      attacker.kill("SIGKILL");
    }
    expect(outcomes).not.toContain(SECRET);
    expect(outcomes.filter((o) => o !== "inside\n" && o !== "refused")).toEqual([]);
    // Both kinds of outcome happened, so the race was real.
    expect(outcomes).toContain("refused");
    expect(outcomes).toContain("inside\n");
  });
});
