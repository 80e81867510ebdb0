/**
 * The real MCP servers the tests run (the reference servers, which nobody here wrote) and the kit settings that
 * configure them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The entry script of `@modelcontextprotocol/server-<name>`. */
export function referenceServer(name: "everything" | "filesystem" | "memory"): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/server-${name}/package.json`)), "dist", "index.js");
}

export const pluginDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

/** A stdio server entry running `script` with node. */
export function nodeServer(script: string, args: string[] = [], env: Record<string, string> = {}) {
  return { command: process.execPath, args: [script, ...args], env };
}

/** The tiny server of fixtures/ in a temp folder: its definition file, how often it started, a KEEL_HOME. */
export function tiny() {
  const dir = mkdtempSync(join(tmpdir(), "keel-mcp-tiny-"));
  const starts = join(dir, "starts");
  const definition = join(dir, "definition");
  writeFileSync(definition, "Greets someone.");
  const server = nodeServer(join(fixtures, "tiny-server.mjs"), [], {
    TINY_STARTS: starts,
    TINY_DEFINITION: definition,
  });
  const startCount = () => (existsSync(starts) ? readFileSync(starts, "utf8").trim().split("\n").length : 0);
  return { server, definition, startCount, home: join(dir, "home") };
}

/** Runs `node …args` (a server that prints `listening on <port>` to stderr); resolves its URL and process. */
export function startHttpServer(args: string[], path = "/mcp"): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const port = /listening on (\d+)/.exec(text)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}${path}`, child });
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}): ${text}`)));
  });
}
