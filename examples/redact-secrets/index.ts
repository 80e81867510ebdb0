/**
 * A `tool_result` transform: before a tool's result enters the history (so before the model, the session file
 * or any UI sees it), text that looks like a credential — provider API keys, GitHub and Slack tokens, AWS key
 * ids, private key blocks, and `NAME=value` lines whose name says secret — is replaced by `[redacted]`.
 * Add your own patterns (regular expression sources) in settings.
 *
 * settings.json: { "redact": { "patterns": ["acme_[A-Za-z0-9]{32}"] } }
 */
import { definePlugin, z, type ToolResultMessage } from "@keel/extensions-api";

const BUILT_IN = [
  /\b(?:sk|rk|pk)-[A-Za-z0-9_-]{16,}/g, // OpenAI/Anthropic-style keys
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b([A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|API_KEY)[A-Z0-9_]*\s*[=:]\s*)\S+/g, // keeps the name, drops the value
];

export default definePlugin({
  settings: z.object({ patterns: z.array(z.string()).default([]) }).default({ patterns: [] }),
  activate(api) {
    const patterns = [...BUILT_IN, ...api.settings.patterns.map((source) => new RegExp(source, "g"))];
    const redact = (text: string) =>
      patterns.reduce(
        (out, re) =>
          out.replace(re, (match, name?: string) =>
            typeof name === "string" && match.startsWith(name) ? `${name}[redacted]` : "[redacted]",
          ),
        text,
      );
    api.hooks.tap("tool_result", (result): ToolResultMessage => ({
      ...result,
      content: result.content.map((block) => (block.type === "text" ? { ...block, text: redact(block.text) } : block)),
    }));
  },
});
