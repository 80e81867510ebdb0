/**
 * A server's prompt as the command `/mcp:<server>:<prompt> [arguments]`: the words after the command fill the
 * prompt's arguments in order (`name=value` names one), the server renders the prompt, and its messages are
 * sent to the agent as the user's message (text and images; other content is named).
 */
import type { SlashCommand, UserContent } from "@keel/extensions-api";
import type { McpPrompt } from "./definition.ts";
import type { McpHub } from "./hub.ts";
import { mcpPromptCommand } from "./names.ts";
import { lazyModules } from "./lazy-modules.ts";

/** `a b name=c` → the prompt's arguments: named ones by name, the others in the prompt's order. */
export function promptArguments(prompt: McpPrompt, args: string): Record<string, string> {
  const out: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of args.trim().split(/\s+/).filter(Boolean)) {
    const at = word.indexOf("=");
    const name = at > 0 ? word.slice(0, at) : undefined;
    if (name && prompt.arguments?.some((a) => a.name === name)) out[name] = word.slice(at + 1);
    else positional.push(word);
  }
  const free = (prompt.arguments ?? []).filter((a) => !(a.name in out));
  free.forEach((argument, i) => {
    if (i < positional.length)
      out[argument.name] = i === free.length - 1 ? positional.slice(i).join(" ") : positional[i]!;
  });
  return out;
}

export function promptCommand(hub: McpHub, server: string, prompt: McpPrompt): SlashCommand {
  const names = (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
  return {
    name: mcpPromptCommand(server, prompt.name),
    description:
      `${prompt.description ?? prompt.title ?? `The ${prompt.name} prompt`} (MCP server ${server})` +
      (names ? ` ${names}` : ""),
    async run(args, runtime) {
      const values = promptArguments(prompt, args);
      const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in values)).map((a) => a.name);
      if (missing.length > 0) {
        runtime.notify(`/mcp:${server}:${prompt.name} needs ${missing.join(", ")}: ${names}`, "warning");
        return;
      }
      const client = await hub.connections.get(server)!.ensure();
      const result = await client.getPrompt({ name: prompt.name, arguments: values });
      const { toToolResult } = await lazyModules.results();
      // A prompt message's content is one block of the same kinds as a tool result's.
      const content: UserContent[] = result.messages.flatMap((m) => {
        const blocks = toToolResult({ content: [m.content] }, server, prompt.name).content;
        return typeof blocks === "string" ? [{ type: "text" as const, text: blocks }] : blocks;
      });
      await runtime.prompt(content);
    },
  };
}
