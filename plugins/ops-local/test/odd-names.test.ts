import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./fixture.ts";

const ODD_NAMES = [
  "with space.txt",
  "  leading spaces.txt",
  "trailing space .txt",
  "ünïcödé.txt",
  "日本語のファイル.md",
  "emoji 😀.txt",
  "-leading-dash.txt",
  "--double-dash",
  ".hidden",
  "..double-dot-prefix",
  "file..txt",
  "...",
  "ends.with.dot.",
  "it's 'quoted'.txt",
  'say "hi".txt',
  "semi;colon&amp|pipe.txt",
  "$HOME and `ticks`.sh",
  "tab\tname.txt",
  "back\\slash.txt",
  "#hash %percent ~tilde.txt",
  "*star? [brackets] {braces}.txt",
  "x".repeat(244),
  "dir with space/sub dir/file.txt",
  "-dir/--file",
  "~/not-home.txt",
];

describe("local backend accepts odd but legitimate names", () => {
  let world: World;
  beforeEach(() => {
    world = makeWorld();
  });
  afterEach(() => world.remove());

  it(`has at least 15 odd names (${ODD_NAMES.length})`, () => {
    expect(ODD_NAMES.length).toBeGreaterThanOrEqual(15);
  });

  it.each(ODD_NAMES.map((name) => ({ name, shown: JSON.stringify(name).slice(0, 60) })))(
    "writes, reads, lists and stats $shown",
    async ({ name }) => {
      await world.ops.writeFile(name, `content of ${name}`);
      expect(readFileSync(join(world.ws, name), "utf8")).toBe(`content of ${name}`);
      expect(new TextDecoder().decode(await world.ops.readFile(name))).toBe(`content of ${name}`);
      const folder = name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : ".";
      const base = name.slice(name.lastIndexOf("/") + 1);
      expect((await world.ops.list(folder)).map((entry) => entry.name)).toContain(base);
      expect(await world.ops.stat(name)).toMatchObject({ kind: "file" });
      expect(await world.ops.resolve(name, "write")).toBe(join(world.ws, name));
    },
  );

  it("accepts symlinks that stay inside, and follows them to their real paths", async () => {
    expect(new TextDecoder().decode(await world.ops.readFile("inside-link"))).toBe("inside\n");
    expect((await world.ops.list("inside-dir-link")).map((e) => e.name).sort()).toEqual([
      "deeper",
      "inner.txt",
      "link-up",
    ]);
    await world.ops.writeFile("inside-dangling", "created through a dangling link\n");
    expect(readFileSync(join(world.ws, "sub/not-yet.txt"), "utf8")).toBe("created through a dangling link\n");
  });

  it("accepts .. that stays inside and absolute paths inside", async () => {
    expect(new TextDecoder().decode(await world.ops.readFile("sub/deeper/../../real.txt"))).toBe("inside\n");
    expect(new TextDecoder().decode(await world.ops.readFile(join(world.ws, "sub/inner.txt")))).toBe("inner\n");
  });

  it("accepts a path of 4095 bytes, the longest Linux takes", async () => {
    const rest = 4095 - world.ws.length - 1;
    const path = `${world.ws}/${"d/".repeat(Math.floor((rest - 1) / 2))}`.padEnd(4095, "f");
    expect(new TextEncoder().encode(path).length).toBe(4095);
    await expect(world.ops.resolve(path, "read")).resolves.toBe(path);
  });

  it("reads a 255-byte name but refuses to write one, saying why", async () => {
    const name = "y".repeat(255);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(world.ws, name), "long");
    expect(new TextDecoder().decode(await world.ops.readFile(name))).toBe("long");
    await expect(world.ops.writeFile(name, "x")).rejects.toThrow(
      "its name is 255 bytes; files are written through a temp file named after them, so names " +
        "written may be at most 244 bytes. Use a shorter name",
    );
  });
});
