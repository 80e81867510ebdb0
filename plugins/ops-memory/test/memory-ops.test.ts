import { PathAccessError } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { createMemoryOps } from "../src/memory-ops.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("memory backend", () => {
  it("starts with seeded files and their folders", async () => {
    const ops = createMemoryOps("/ws", { "src/a.ts": "a", "README.md": "r" });
    expect(text(await ops.readFile("src/a.ts"))).toBe("a");
    expect((await ops.list(".")).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: "README.md", kind: "file" },
      { name: "src", kind: "directory" },
    ]);
  });

  it("says it is not local, so tools do not try to run helper binaries", () => {
    expect(createMemoryOps().local).toBe(false);
  });

  it("writes files, creating parent folders, and replaces them whole", async () => {
    const ops = createMemoryOps();
    await ops.writeFile("a/b/c.txt", "one");
    await ops.writeFile("a/b/c.txt", new Uint8Array([0x74, 0x77, 0x6f]));
    expect(text(await ops.readFile("/workspace/a/b/c.txt"))).toBe("two");
    expect(await ops.stat("a/b")).toMatchObject({ kind: "directory" });
    expect(await ops.stat("a/b/c.txt")).toMatchObject({ kind: "file", size: 3 });
  });

  it("keeps Node's error codes for missing files, folders read as files, and files listed as folders", async () => {
    const ops = createMemoryOps("/workspace", { "f.txt": "x" });
    await expect(ops.readFile("nope")).rejects.toMatchObject({ code: "ENOENT" });
    await ops.mkdir("dir");
    await expect(ops.readFile("dir")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(ops.list("f.txt")).rejects.toMatchObject({ code: "ENOTDIR" });
    await expect(ops.writeFile("f.txt/child", "x")).rejects.toMatchObject({ code: "ENOTDIR" });
    expect(await ops.stat("nope")).toBeUndefined();
  });

  it("removes files and folders with their content", async () => {
    const ops = createMemoryOps("/workspace", { "d/x.txt": "", "d/e/y.txt": "", "keep.txt": "" });
    await ops.remove("d");
    expect((await ops.list(".")).map((e) => e.name)).toEqual(["keep.txt"]);
    expect(await ops.stat("d/e/y.txt")).toBeUndefined();
  });

  it.each(["../x", "/etc/passwd", "sub/../../x", "..", "a\0b", "", "n".repeat(256), "d/".repeat(2100)])(
    "refuses %j like the local backend does",
    async (path) => {
      const ops = createMemoryOps();
      await expect(ops.readFile(path)).rejects.toBeInstanceOf(PathAccessError);
      await expect(ops.writeFile(path, "x")).rejects.toBeInstanceOf(PathAccessError);
    },
  );

  it("words a refusal the way the local backend does", async () => {
    await expect(createMemoryOps("/ws").readFile("../x")).rejects.toThrow(
      'Path refused: "../x": it lies outside the workspace /ws; use a path inside the workspace',
    );
  });

  it("refuses to remove the workspace itself", async () => {
    await expect(createMemoryOps().remove(".")).rejects.toBeInstanceOf(PathAccessError);
  });

  it("cannot run processes and says what to use instead", () => {
    expect(() => createMemoryOps().spawn("ls")).toThrow(
      'Cannot run "ls": the in-memory operations backend has no processes. Select a backend that ' +
        'can (set "ops": "local" in settings.json).',
    );
  });
});
