/**
 * The small readers: MCP configurations in both forms with variables, model names as files write them, and
 * CLAUDE.md imports.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withImports } from "../src/instructions.ts";
import { expandVariables, mcpServersOf } from "@keel/extensions-api/mcp-config";
import { resolveModel } from "../src/models.ts";
import { writeTree } from "./write.ts";
import { readFileSync } from "node:fs";

describe("MCP configurations", () => {
  it("reads the wrapped and the flat form, and says why a file holds no server", () => {
    const server = { command: "npx", args: ["srv"] };
    expect(mcpServersOf({ mcpServers: { a: server } })).toEqual({ servers: { a: server } });
    expect(mcpServersOf({ a: server, b: { type: "sse", url: "https://x/sse" } })).toEqual({
      servers: { a: server, b: { type: "sse", url: "https://x/sse" } },
    });
    expect(mcpServersOf({ name: "not a server" })).toEqual({ problem: expect.stringContaining('no "mcpServers"') });
    expect(mcpServersOf([])).toEqual({ problem: "it is not a JSON object" });
  });

  it("fills ${VAR} and ${VAR:-default} everywhere in an entry and names what is missing", () => {
    const entry = {
      url: "https://${HOST:-api.example.com}/mcp",
      headers: { Authorization: "Bearer ${TOKEN}", X: "${EMPTY:-}" },
      args: ["-e", "K=${KEY}"],
    };
    const { entry: filled, missing } = expandVariables(entry, { TOKEN: "t0k" });
    expect(filled).toEqual({
      url: "https://api.example.com/mcp",
      headers: { Authorization: "Bearer t0k", X: "" },
      args: ["-e", "K="],
    });
    expect(missing).toEqual(["KEY"]);
  });
});

describe("model names", () => {
  const models = [
    { provider: "anthropic", id: "claude-haiku-4-5" },
    { provider: "anthropic", id: "claude-opus-4-1" },
    { provider: "anthropic", id: "claude-opus-4-5" },
    { provider: "openai", id: "gpt-5" },
  ];
  it("maps an alias to the newest model of the session's provider, unless the setting names one", () => {
    expect(resolveModel("opus", { aliases: {}, models, provider: "anthropic" })).toEqual({
      choice: { provider: "anthropic", model: "claude-opus-4-5" },
    });
    expect(resolveModel("opus", { aliases: { opus: "openai/gpt-5" }, models, provider: "anthropic" })).toEqual({
      choice: { provider: "openai", model: "gpt-5" },
    });
    expect(resolveModel("sonnet", { aliases: {}, models, provider: "openai" }).problem).toContain("modelAliases");
  });

  it("takes inherit as the session's, provider/model as written, and a bare id from any provider", () => {
    expect(resolveModel("inherit", { aliases: {}, models })).toEqual({});
    expect(resolveModel("x/y", { aliases: {}, models })).toEqual({ choice: { provider: "x", model: "y" } });
    expect(resolveModel("gpt-5", { aliases: {}, models, provider: "anthropic" })).toEqual({
      choice: { provider: "openai", model: "gpt-5" },
    });
  });
});

describe("CLAUDE.md imports", () => {
  it("brings in each imported file after the one importing it, nested, once, and not from code", () => {
    const dir = writeTree({
      "CLAUDE.md": "See @AGENTS.md and @docs/style.md. Not `@docs/code.md`.\n",
      "AGENTS.md": "Agents. Also @docs/style.md\n",
      "docs/style.md": "Style. Back to @../CLAUDE.md\n",
      "docs/code.md": "never\n",
    });
    const read = (path: string) => {
      try {
        return readFileSync(path, "utf8");
      } catch {
        return undefined;
      }
    };
    const main = join(dir, "CLAUDE.md");
    const parts = withImports(main, read(main)!, read);
    expect(parts.map((p) => [p.path.slice(dir.length + 1), p.importedBy?.slice(dir.length + 1)])).toEqual([
      ["CLAUDE.md", undefined],
      ["AGENTS.md", "CLAUDE.md"],
      ["docs/style.md", "AGENTS.md"],
    ]);
  });
});
