/**
 * A session folder's name keeps its hash when the hash moved from node:crypto to @noble/hashes (paths.ts): the
 * folders of sessions written before must still be found.
 */
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { encodeCwd } from "../src/paths.ts";

it("names a working directory's folder by the same SHA-256 node:crypto gives", () => {
  for (const cwd of ["/", "/home/ana/project", "/tmp/ünïcødé/日本語/🙂", "C:\\Users\\ana\\repo"]) {
    const expected = createHash("sha256").update(cwd).digest("hex").slice(0, 8);
    expect(encodeCwd(cwd).endsWith(`-${expected}`)).toBe(true);
  }
});
