/**
 * The examples corpus stays documentation: every folder under examples/ is a plugin whose entry opens with a
 * comment saying what it shows, is listed in examples/README.md, and is loaded by a test in this folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../examples", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));
const folders = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const readme = readFileSync(join(root, "README.md"), "utf8");
const tests = [here, fileURLToPath(new URL("../e2e", import.meta.url))].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts") && f !== "index.test.ts")
    .map((f) => readFileSync(join(dir, f), "utf8")),
);

describe("examples/", () => {
  it.each(folders)("%s is a plugin that opens with a comment, is indexed, and is loaded by a test", (name) => {
    const pkg = JSON.parse(readFileSync(join(root, name, "package.json"), "utf8")) as {
      keel?: { entry?: string; providers?: unknown[] };
    };
    if (pkg.keel?.entry === undefined && (pkg.keel?.providers ?? []).length > 0) {
      // A plugin with no code (providers declared in its manifest) says what it shows in its README.
      expect(readFileSync(join(root, name, "README.md"), "utf8")).toMatch(/^# \S+\n\nWhat it shows: \S/);
    } else {
      expect(pkg.keel?.entry, `${name}/package.json has no keel.entry`).toBeTypeOf("string");
      expect(readFileSync(join(root, name, pkg.keel!.entry!), "utf8")).toMatch(/^\/\*\*\n \* \S/);
    }
    // Listed as a link, or by name while another change is still writing the folder.
    expect(readme.includes(`| [${name}](${name}) |`) || readme.includes(`| \`${name}\` |`)).toBe(true);
    expect(
      tests.some(
        (t) => t.includes(`example("${name}")`) || t.includes(`examples/${name}"`) || t.includes(`examples/${name}\``),
      ),
    ).toBe(true);
  });
});
