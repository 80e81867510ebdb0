import { describe, expect, it } from "vitest";
import { createFileTools } from "../src/tools.ts";

describe("tools-fs tools", () => {
  it("marks read, ls, find and grep read-only, so they may run in parallel, and write and edit not", () => {
    const tools = Object.values(createFileTools({ ripgrep: true }));
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.readOnly === true]))).toEqual({
      read: true,
      write: false,
      edit: false,
      ls: true,
      find: true,
      grep: true,
    });
  });
});
