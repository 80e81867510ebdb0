/**
 * Confinement: every path that leads out of the workspace, by its text or through a symlink, is refused with a
 * PathAccessError naming the path as given, by every method, and nothing outside changes. Symlinks that stay
 * inside work; removing a symlink never touches what it leads to.
 */
import type { Operations } from "@keel/extensions-api";
import { assert, assertRefused, caught, decode, outsideState } from "./check.js";
import type { OpsCase, OpsWorld } from "./types.js";

const SECRET = "outside secret\n";

type Method = "read" | "write" | "list" | "stat" | "mkdir" | "remove" | "resolve" | "spawn";

function attempt(ops: Operations, method: Method, path: string): Promise<unknown> | unknown {
  switch (method) {
    case "read":
      return ops.readFile(path);
    case "write":
      return ops.writeFile(path, "pwned");
    case "list":
      return ops.list(path);
    case "stat":
      return ops.stat(path);
    case "mkdir":
      return ops.mkdir(path);
    case "remove":
      return ops.remove(path);
    case "resolve":
      return ops.resolve(path, "write");
    case "spawn":
      // Refused when it starts, or as its exit: a remote backend may only learn it over there.
      return ops.spawn("true", { cwd: path }).exited;
  }
}

async function seedWorld(world: OpsWorld, links: boolean): Promise<void> {
  const { files } = world;
  await files.write("outside/secret.txt", SECRET);
  await files.mkdir("outside/dir");
  await files.write("ws2/sibling.txt", "sibling\n");
  await files.write("ws/real.txt", "inside\n");
  await files.write("ws/sub/inner.txt", "inner\n");
  if (!links) return;
  const symlinks: [string, string][] = [
    ["ws/link-out-file", "../outside/secret.txt"],
    ["ws/link-out-dir", "../outside"],
    ["ws/link-abs-file", `${world.root}/outside/secret.txt`],
    ["ws/link-root", "/"],
    ["ws/dangling-out", "../outside/new.txt"],
    ["ws/dangling-out-dir", "../outside/newdir"],
    ["ws/chain1", "chain2"],
    ["ws/chain2", "chain3"],
    ["ws/chain3", "../outside/secret.txt"],
    ["ws/loop1", "loop2"],
    ["ws/loop2", "loop1"],
    ["ws/sub/link-up", "../../outside"],
    ["ws/link-parent", ".."],
    ["ws/inside-link", "real.txt"],
    ["ws/inside-dir-link", "sub"],
  ];
  for (const [path, target] of symlinks) await world.files.symlink(target, path);
}

/** Tries each (method, path) and asserts each is refused and that nothing outside changed. */
async function refuseAll(world: OpsWorld, tries: [Method, string][]): Promise<void> {
  const before = await outsideState(world);
  for (const [method, path] of tries) {
    const error = await caught(() => attempt(world.ops, method, path)).catch(() => {
      assert.fail(`${method} ${JSON.stringify(path)} was not refused`);
    });
    try {
      assertRefused(error, path);
    } catch (failure) {
      throw new Error(`${method} ${JSON.stringify(path)}: ${(failure as Error).message}`);
    }
  }
  assert.equal(await outsideState(world), before, "something outside the workspace changed");
  assert.deepEqual(await world.files.list("ws2"), ["sibling.txt"]);
}

const EVERY: Method[] = ["read", "write", "list", "stat", "mkdir", "resolve"];

export const confinementCases: OpsCase[] = [
  {
    name: "refuses paths that lead out by their text (.., absolute, a sibling with the same prefix) with every method",
    async run(world) {
      await seedWorld(world, false);
      const out = [
        "../outside/secret.txt",
        "..",
        "../",
        "sub/../../outside/secret.txt",
        "sub/./../.././outside/secret.txt",
        "sub/deeper/../../../../../../../etc/passwd",
        "/etc/passwd",
        "/",
        "//etc//passwd",
        `${world.root}/outside/secret.txt`,
        `${world.root}/ws/../outside/secret.txt`,
        `${world.root}/ws2/sibling.txt`,
      ];
      await refuseAll(
        world,
        out.flatMap((path) => EVERY.map((method): [Method, string] => [method, path])),
      );
      await refuseAll(world, [
        ["remove", "../outside/secret.txt"],
        ["remove", `${world.root}/ws2`],
      ]);
    },
  },
  {
    name: "refuses paths no file can have: empty, a NUL byte, a name over 255 bytes, a path over 4095 bytes",
    async run(world) {
      await seedWorld(world, false);
      const bad = ["", "real.txt\0.png", "\0", "sub/\0/inner.txt", "a".repeat(256), "é".repeat(128), "d/".repeat(2100)];
      await refuseAll(
        world,
        bad.flatMap((path) => EVERY.map((method): [Method, string] => [method, path])),
      );
    },
  },
  {
    name: "refuses to run a command in a folder outside the workspace",
    needs: ["processes"],
    async run(world) {
      await seedWorld(world, false);
      await refuseAll(world, [
        ["spawn", ".."],
        ["spawn", `${world.root}/outside`],
      ]);
    },
  },
  {
    name: "refuses symlinks that lead out: to a file, a folder, /, absolute, dangling, chained, looping",
    needs: ["symlinks"],
    async run(world) {
      await seedWorld(world, true);
      await refuseAll(world, [
        ["read", "link-out-file"],
        ["write", "link-out-file"],
        ["read", "link-out-dir/secret.txt"],
        ["list", "link-out-dir"],
        ["write", "link-out-dir/new.txt"],
        ["mkdir", "link-out-dir/newfolder"],
        ["remove", "link-out-dir/secret.txt"],
        ["stat", "link-out-dir/secret.txt"],
        ["resolve", "link-out-dir/x"],
        ["read", "link-abs-file"],
        ["read", "link-root/etc/passwd"],
        ["list", "link-root"],
        ["read", "chain1"],
        ["read", "sub/link-up/secret.txt"],
        ["read", "link-parent/outside/secret.txt"],
        ["write", "dangling-out"],
        ["read", "dangling-out"],
        ["write", "dangling-out-dir/x.txt"],
        ["read", "loop1"],
      ]);
    },
  },
  {
    name: "refuses to run a command in a symlinked folder that leads out",
    needs: ["symlinks", "processes"],
    async run(world) {
      await seedWorld(world, true);
      await refuseAll(world, [["spawn", "link-out-dir"]]);
    },
  },
  {
    name: "follows symlinks that stay inside, and stats a symlink as one without following it",
    needs: ["symlinks"],
    async run(world) {
      await seedWorld(world, true);
      const { ops } = world;
      assert.equal(decode(await ops.readFile("inside-link")), "inside\n");
      assert.equal(decode(await ops.readFile("inside-dir-link/inner.txt")), "inner\n");
      assert.equal((await ops.stat("link-out-file"))?.kind, "symlink");
      const entries = await ops.list(".");
      assert.equal(entries.find((e) => e.name === "link-out-dir")?.kind, "symlink");
    },
  },
  {
    name: "removes a symlink that leads out, and a folder holding one, without touching what they lead to",
    needs: ["symlinks"],
    async run(world) {
      await seedWorld(world, true);
      await world.files.write("outside/dir/kept.txt", "kept");
      await world.files.mkdir("ws/tree/a");
      await world.files.symlink(`${world.root}/outside/dir`, "ws/tree/a/out");
      await world.ops.remove("link-out-file");
      await world.ops.remove("tree");
      assert.equal(await world.files.exists("ws/link-out-file"), false);
      assert.equal(await world.files.exists("ws/tree"), false);
      assert.equal(decode((await world.files.read("outside/secret.txt"))!), SECRET);
      assert.deepEqual(await world.files.list("outside/dir"), ["kept.txt"]);
    },
  },
];
