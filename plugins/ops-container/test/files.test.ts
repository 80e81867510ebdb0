/**
 * Files in the container backend, against a real Podman: what the tools write is in the workspace on this
 * machine and in the container at once, bytes as they are; paths are confined to the mounted workspace, also
 * against symlinks a command in the container made (which point into the container's filesystem, not this
 * machine's); with the workspace mounted elsewhere, paths are the container's and errors name them so.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPodman, type Podman } from "../../../test/support/podman.ts";
import { outputCollector } from "../../../test/support/processes.ts";
import { tempFolder } from "../../../test/support/workspace.ts";
import type { ContainerOps } from "../src/container-ops.ts";
import { openContainerOps } from "./fixture.ts";

let podman: Podman;
let root: ReturnType<typeof tempFolder>;
let ws: string;
let ops: ContainerOps;

beforeAll(async () => {
  podman = await startPodman();
  root = tempFolder("keel-container-files-");
  ws = join(root.path, "ws");
  mkdirSync(ws);
  writeFileSync(join(root.path, "secret.txt"), "outside\n");
  ops = await openContainerOps(podman, ws);
});
afterAll(async () => {
  await ops?.close();
  await podman?.stop();
  root?.remove();
});

async function inContainer(target: ContainerOps, command: string): Promise<string> {
  const out = outputCollector();
  const exit = await target.spawn(command, { onData: out.onData }).exited;
  expect(exit.code, out.text()).toBe(0);
  return out.text();
}

describe("files", () => {
  it("writes into the workspace, making folders, and the container sees it at once", async () => {
    await ops.writeFile("made/deep/note.txt", "written by a tool\n");
    expect(readFileSync(join(ws, "made/deep/note.txt"), "utf8")).toBe("written by a tool\n");
    expect(await inContainer(ops, "cat made/deep/note.txt")).toBe("written by a tool\n");
  });

  it("reads what a command wrote, bytes that are not UTF-8 exactly", async () => {
    await inContainer(ops, "printf '\\377\\376\\000latin\\351' > raw.bin");
    expect([...(await ops.readFile("raw.bin"))]).toEqual([0xff, 0xfe, 0, ...Buffer.from("latin"), 0xe9]);
    await ops.writeFile("back.bin", new Uint8Array([0x80, 0, 0xff]));
    expect(await inContainer(ops, "od -An -tx1 back.bin")).toContain("80 00 ff");
  });

  it("finds programs on the PATH of the container's commands, and says so when one is not there", async () => {
    expect(await ops.which("rg")).toBe("/usr/bin/rg");
    expect(await ops.which("keel-no-such-program")).toBeUndefined();
  });

  it("stats, lists, makes and removes", async () => {
    await ops.mkdir("dir");
    await inContainer(ops, "touch dir/a && ln -s a dir/link");
    expect((await ops.list("dir")).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: "a", kind: "file" },
      { name: "link", kind: "symlink" },
    ]);
    expect((await ops.stat("dir/link"))?.kind).toBe("symlink");
    await ops.remove("dir/link");
    expect(await ops.stat("dir/link")).toBeUndefined();
    expect(await ops.resolve("dir/a", "read")).toBe(join(ws, "dir/a"));
  });
});

describe("confinement", () => {
  it("refuses paths outside the workspace by their text", async () => {
    for (const path of ["../secret.txt", "/etc/keel-image", "/etc/passwd"])
      await expect(ops.readFile(path)).rejects.toThrow(PathAccessError);
    await expect(ops.writeFile("../new.txt", "x")).rejects.toThrow("it lies outside the workspace");
  });

  it("refuses symlinks leading out, made in the container or on this machine", async () => {
    await inContainer(ops, "ln -s /etc/keel-image to-image && ln -s .. up && ln -s /etc to-etc");
    symlinkSync(join(root.path, "secret.txt"), join(ws, "to-secret"));
    for (const path of ["to-image", "up/secret.txt", "to-etc/passwd", "to-secret"]) {
      await expect(ops.readFile(path)).rejects.toThrow(PathAccessError);
      await expect(ops.writeFile(path, "overwritten")).rejects.toThrow(PathAccessError);
    }
    await expect(ops.list("to-etc")).rejects.toThrow(PathAccessError);
    expect(readFileSync(join(root.path, "secret.txt"), "utf8")).toBe("outside\n");
    expect(await ops.stat("to-etc")).toMatchObject({ kind: "symlink" });
  });
});

describe("a workspace mounted elsewhere", () => {
  let moved: ContainerOps;
  beforeAll(async () => {
    moved = await openContainerOps(podman, ws, { workspaceMount: "/work" });
  });
  afterAll(() => moved?.close());

  it("works in the container's paths, and takes this machine's path of the workspace too", async () => {
    expect(moved.cwd).toBe("/work");
    await moved.writeFile("/work/moved.txt", "via the mount\n");
    expect(readFileSync(join(ws, "moved.txt"), "utf8")).toBe("via the mount\n");
    expect(new TextDecoder().decode(await moved.readFile(join(ws, "moved.txt")))).toBe("via the mount\n");
    expect(await moved.resolve("moved.txt", "read")).toBe("/work/moved.txt");
    expect(await inContainer(moved, "pwd; cat moved.txt")).toBe("/work\nvia the mount\n");
  });

  it("names paths as the container sees them in its errors", async () => {
    await expect(moved.readFile("nope.txt")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(moved.readFile("nope.txt")).rejects.not.toThrow(ws);
    await expect(moved.readFile("../x")).rejects.toThrow("outside the workspace /work");
  });
});
