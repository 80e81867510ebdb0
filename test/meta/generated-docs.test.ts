// Generated documents cannot drift: `npm test` runs `scripts/docs.js --check`, and these check that the check
// itself notices a stale file and that each document really follows its source.
import { readFileSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { HOOKS, z } from "@keel/extensions-api";
import { interfaceDocs } from "../../scripts/docs/doc-comments.js";
import { generatedDocs, staleDocs } from "../../scripts/docs/generate.js";
import { readmeSettings, settingsRows } from "../../scripts/docs/plugin-settings.js";

const root = new URL("../../", import.meta.url);
const readRepo = (path: string) => readFileSync(new URL(path, root), "utf8");
const toolCallDoc = HOOKS.tool_call.doc;
afterEach(() => {
  (HOOKS.tool_call as { doc: string }).doc = toolCallDoc;
});

it("finds every generated document fresh, and names one whose text changed", async () => {
  const docs = await generatedDocs(root);
  expect(docs.map((d) => d.path)).toContain("docs/hooks-and-events.md");
  expect(staleDocs(docs, readRepo)).toEqual([]);
  const edited = (path: string) =>
    path === "docs/hooks-and-events.md" ? readRepo(path).replace("| `tool_call` |", "| `tool_cal` |") : readRepo(path);
  expect(staleDocs(docs, edited)).toEqual(["docs/hooks-and-events.md"]);
  expect(staleDocs(docs, () => undefined)).toEqual(docs.map((d) => d.path));
});

it("takes each hook's documentation from the HOOKS catalog only", async () => {
  (HOOKS.tool_call as { doc: string }).doc = "A changed description of tool_call.";
  const docs = await generatedDocs(root);
  expect(docs.find((d) => d.path === "docs/hooks-and-events.md")!.text).toContain(
    "| A changed description of tool_call. |",
  );
  expect(staleDocs(docs, readRepo)).toContain("docs/hooks-and-events.md");
});

it("records the lifecycle from a real run: the tool call, the overflow's compaction and the end, in order", () => {
  const text = readRepo("docs/hooks-and-events.md");
  const order = [
    "`session_start`",
    "`input`",
    "`tool_call`",
    "`compact_before`",
    "`compact`",
    "`stop`",
    "`agent_end`",
    "`session_end`",
    "`shutdown`",
  ];
  const lifecycle = text.slice(text.indexOf("## Lifecycle"), text.indexOf("## Reference"));
  const positions = order.map((name) => lifecycle.indexOf(`| ${name} |`));
  expect(positions.every((p) => p > 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
});

it("reads an interface's doc comments, multi-line signatures included", () => {
  const source = [
    "/** A thing. */",
    "export interface Thing {",
    "  /** Its name. */",
    "  readonly name: string;",
    "  /**",
    "   * Runs it",
    "   * twice.",
    "   */",
    "  run(options: {",
    "    fast: boolean;",
    "  }): void;",
    "  bare(): void;",
    "}",
  ].join("\n");
  expect(interfaceDocs(source, "Thing")).toEqual({
    name: "Thing",
    heading: "export interface Thing",
    doc: "A thing.",
    members: [
      { name: "name", signature: "readonly name: string", doc: "Its name." },
      { name: "run", signature: "run(options: { fast: boolean }): void", doc: "Runs it twice." },
      { name: "bare", signature: "bare(): void", doc: undefined },
    ],
  });
  expect(() => interfaceDocs(source, "Other")).toThrow('no "export interface Other" found');
});

it("builds a plugin's settings table from its schema: keys, types, defaults and .describe() texts", () => {
  const schema = z
    .object({
      level: z.enum(["low", "high"]).default("low").describe("How loud it is."),
      roots: z
        .array(z.object({ path: z.string().describe("Where.") }))
        .default([])
        .describe("Extra folders."),
      name: z.string().optional(),
    })
    .prefault({});
  const rows = settingsRows(schema);
  expect(rows).toEqual([
    { key: "level", type: '"low" \\| "high"', default: '"low"', description: "How loud it is." },
    { key: "roots", type: "{ path }[]", default: "[]", description: "Extra folders." },
    { key: "roots[].path", type: "string", default: "—", description: "Where." },
    { key: "name", type: "string", default: "—", description: "" },
  ]);
  const table = readmeSettings({ folder: "p", name: "@x/p", description: "", settingsKey: "p", reads: [], rows });
  expect(table).toContain('| `level` | `"low" \\| "high"` | `"low"` | How loud it is. |');
});

it("finds a plugin README whose settings table was edited by hand stale", async () => {
  const docs = await generatedDocs(root);
  const readme = "plugins/tool-bash/README.md";
  expect(docs.map((d) => d.path)).toEqual(expect.arrayContaining([readme, "docs/settings.md"]));
  const edited = (path: string) =>
    path === readme
      ? readRepo(path).replace("| `timeoutSeconds` | `number` | `120` |", "| `timeoutSeconds` | `number` | `60` |")
      : readRepo(path);
  expect(staleDocs(docs, edited)).toEqual([readme]);
});
