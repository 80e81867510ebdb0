/**
 * The plugin's own `mcp` section (protocol, search threshold, restarts). The servers (`mcpServers`) are read
 * in `servers.ts`, loaded only when an entry must be checked.
 */
import { z } from "@keel/extensions-api";

export const McpSettingsSchema = z
  .object({
    protocol: z
      .enum(["2025-11-25", "auto", "2026-07-28"])
      .default("2025-11-25")
      .describe(
        "MCP revision: `2025-11-25` (the initialize handshake), `auto` (probe for 2026-07-28, fall back) " +
          "or `2026-07-28` (required).",
      ),
    searchAboveTools: z
      .number()
      .int()
      .min(0)
      .default(40)
      .describe("Above this many MCP tools they are found through `mcp_search` instead of being sent one by one."),
    searchAboveBytes: z
      .number()
      .int()
      .min(0)
      .default(40_000)
      .describe("Above this many bytes of MCP tool definitions, likewise."),
    startTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(30_000)
      .describe("How long a server may take to start and answer `initialize` before it counts as failed."),
    sampling: z
      .enum(["ask", "allow", "deny"])
      .default("ask")
      .describe(
        "When a server asks the session's model for a completion: `ask` the user each time (refused when " +
          "nobody can be asked, as in -p), `allow` without asking, or `deny`.",
      ),
    authTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(300_000)
      .describe("How long keel waits for you to finish signing in to an MCP server in the browser."),
    maxRestarts: z
      .number()
      .int()
      .min(0)
      .default(3)
      .describe("Restarts after a crash (with backoff) before a server is left stopped for the session."),
  })
  .prefault({});

export type McpSettings = z.output<typeof McpSettingsSchema>;
