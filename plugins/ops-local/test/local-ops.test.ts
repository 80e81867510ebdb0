import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalOps } from "../src/local-ops.ts";
import { makeWorld, SECRET, type World } from "./fixture.ts";

describe("local backend", () => {
  let world: World;
  beforeEach(() => {
    world = makeWorld();
  });
  afterEach(() => world.remove());

  it("says it is local, so tools may run helper binaries through spawn", () => {
    expect(world.ops.local).toBe(true);
    expect(world.ops.cwd).toBe(world.ws);
  });

  it("reads from a read-only allowed root", async () => {
    expect(new TextDecoder().decode(await world.ops.readFile(join(world.root, "ro/ref.txt")))).toBe("reference\n");
  });

  it("writes into a read-write allowed root given relative to the workspace", async () => {
    await world.ops.writeFile("../rw/out.txt", "ok");
    expect(readFileSync(join(world.root, "rw/out.txt"), "utf8")).toBe("ok");
  });

  it("leaves out an allowed root that does not exist and reports it", () => {
    const ops = createLocalOps({ cwd: world.ws, allowedRoots: [{ path: "../missing", access: "read" }] });
    expect(ops.missingRoots).toEqual([join(world.root, "missing")]);
  });

  it("stats a symlink as a symlink without following it, even when it points outside", async () => {
    expect(await world.ops.stat("link-out-file")).toMatchObject({ kind: "symlink" });
    expect(await world.ops.stat("no-such-file")).toBeUndefined();
    expect(await world.ops.stat("real.txt")).toMatchObject({ kind: "file", size: 7 });
  });

  it("lists entries with their kinds", async () => {
    const entries = await world.ops.list("sub");
    expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "deeper", kind: "directory" },
      { name: "inner.txt", kind: "file" },
      { name: "link-up", kind: "symlink" },
    ]);
  });

  it("removes a symlink that points outside without touching its target", async () => {
    await world.ops.remove("link-out-file");
    expect(() => lstatSync(join(world.ws, "link-out-file"))).toThrow();
    expect(readFileSync(join(world.outside, "secret.txt"), "utf8")).toBe(SECRET);
  });

  it("removes a folder with what is in it", async () => {
    await world.ops.remove("sub");
    expect(readdirSync(world.ws)).not.toContain("sub");
  });

  it("writes atomically: creates parents, replaces whole, leaves no temp file", async () => {
    await world.ops.writeFile("new/deep/file.txt", "one");
    await world.ops.writeFile("new/deep/file.txt", new TextEncoder().encode("two"));
    expect(readFileSync(join(world.ws, "new/deep/file.txt"), "utf8")).toBe("two");
    expect(readdirSync(join(world.ws, "new/deep"))).toEqual(["file.txt"]);
  });

  it("keeps Node's error codes for missing files and folders", async () => {
    await expect(world.ops.readFile("missing.txt")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(world.ops.readFile("sub")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(world.ops.list("real.txt")).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it("refuses to read a named pipe instead of blocking on it", async () => {
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [join(world.ws, "pipe")]);
    await expect(world.ops.readFile("pipe")).rejects.toThrow(
      'Path refused: "pipe": it is not a regular file (a pipe, socket or device); only files can be read',
    );
  });

  it("runs a process in a confined folder with the environment given", async () => {
    mkdirSync(join(world.ws, "run here"));
    let output = "";
    const handle = world.ops.spawn('pwd; printf "%s" "$GREETING"', {
      cwd: "run here",
      env: { GREETING: "hello" },
      onData: (chunk) => (output += new TextDecoder().decode(chunk)),
    });
    expect(await handle.exited).toEqual({ code: 0, signal: null });
    expect(output).toBe(`${join(world.ws, "run here")}\nhello`);
  });

  it("runs a process in the workspace when no folder is given", async () => {
    writeFileSync(join(world.ws, "marker"), "");
    let output = "";
    const handle = world.ops.spawn("ls marker", { onData: (chunk) => (output += new TextDecoder().decode(chunk)) });
    await handle.exited;
    expect(output).toBe("marker\n");
  });
});
