/**
 * The format adapters (src/package-formats): a package in each other host's format reads into a keel manifest
 * with its components, the capabilities they imply and every part keel does not run named; bad packages are
 * refused with the file and the reason.
 */
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writePackage } from "../../../test/support/package-fixtures.ts";
import { contentPaths, readManifest } from "../src/index.ts";

const temp = () => mkdtempSync(join(tmpdir(), "keel-pkgfmt-"));

describe("reading packages of other formats", () => {
  it("reads a Claude Code plugin: components, implied capabilities, output styles named", () => {
    const dir = writePackage(temp(), "claude-code", "toolbox");
    const read = readManifest(dir);
    expect(read.ok && read.format).toBe("claude-code");
    if (!read.ok) return;
    expect(read.pkg).toMatchObject({ name: "toolbox", version: "1.2.0" });
    expect(read.pkg.keel.capabilities).toEqual(["exec"]);
    const content = contentPaths(dir, read.pkg.keel)!;
    expect(content.commands).toEqual([join(dir, "commands")]);
    expect(content.agents).toEqual([join(dir, "agents")]);
    expect(content.skills).toEqual([join(dir, "skills")]);
    expect(content.hooks).toEqual([join(dir, "hooks/hooks.json")]);
    expect(content.mcpServers).toEqual([join(dir, ".mcp.json")]);
    expect(content.unhonoured.join("\n")).toContain("output styles");
  });

  it("reads a Codex plugin and names its apps", () => {
    const dir = writePackage(temp(), "codex", "codex-kit");
    const read = readManifest(dir);
    expect(read.ok && read.format).toBe("codex");
    if (!read.ok) return;
    expect(read.pkg.keel.content?.unhonoured.join()).toContain("apps");
    expect(read.pkg.keel.skills).toEqual(["./skills/"]);
  });

  it("reads an Agent Plugins package: mcp.json mapped with PLUGIN_ROOT and PLUGIN_DATA filled", () => {
    const dir = writePackage(temp(), "agent-plugins", "portable");
    const read = readManifest(dir);
    expect(read.ok && read.format).toBe("agent-plugins");
    if (!read.ok) return;
    const servers = read.pkg.keel.content!.mcpServers[0] as Record<string, { args: string[]; env: object }>;
    expect(servers.portable!.args).toEqual([join(dir, "server.mjs")]);
    expect(servers.portable!.env).toMatchObject({ PLUGIN_ROOT: dir });
    expect(read.pkg.keel.capabilities).toEqual(["exec"]);
  });

  it("reads a Gemini CLI extension: context file, excluded tools as deny rules, themes named", () => {
    const dir = writePackage(temp(), "gemini", "gem");
    const read = readManifest(dir);
    expect(read.ok && read.format).toBe("gemini");
    if (!read.ok) return;
    const content = read.pkg.keel.content!;
    expect(content.instructions).toEqual(["CONTEXT.md"]);
    expect(content.deny).toEqual(["Bash(touch frozen*)"]);
    expect(content.unhonoured.join()).toContain("themes");
    const servers = content.mcpServers[0] as Record<string, { args: string[] }>;
    expect(servers.gem!.args).toEqual([join(dir, "server.mjs")]);
  });

  it("refuses a package whose manifest names a path outside it, or a name keel cannot use", () => {
    const dir = temp();
    mkdirSync(join(dir, ".claude-plugin"));
    writeFileSync(join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name: "x", commands: "../../etc" }));
    expect(readManifest(dir)).toMatchObject({ ok: false, error: expect.stringContaining("outside the plugin") });
    writeFileSync(join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name: "Bad Name" }));
    expect(readManifest(dir)).toMatchObject({ ok: false, error: expect.stringContaining('"Bad Name"') });
    writeFileSync(join(dir, ".claude-plugin/plugin.json"), "{ not json");
    expect(readManifest(dir)).toMatchObject({ ok: false, error: expect.stringContaining("is not JSON") });
  });

  it("refuses an Agent Plugins version it does not read, and skips a bad MCP server saying why", () => {
    const dir = temp();
    const manifest = { $schema: "https://agent-plugins.org/schemas/9.0.0/plugin.schema.json", name: "p" };
    writeFileSync(join(dir, "plugin.json"), JSON.stringify(manifest));
    expect(readManifest(dir)).toMatchObject({ ok: false, error: expect.stringContaining("not an Agent Plugins") });
    manifest.$schema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
    writeFileSync(join(dir, "plugin.json"), JSON.stringify(manifest));
    const mcp = {
      $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
      mcpServers: { a: { type: "ws" } },
    };
    writeFileSync(join(dir, "mcp.json"), JSON.stringify(mcp));
    const read = readManifest(dir);
    expect(read.ok && read.pkg.keel.content?.unhonoured).toEqual([expect.stringContaining('"a" in mcp.json')]);
  });

  it("leaves a folder with no manifest of any format to the usual error", () => {
    expect(readManifest(temp())).toMatchObject({ ok: false, error: expect.stringContaining("has no package.json") });
  });
});
