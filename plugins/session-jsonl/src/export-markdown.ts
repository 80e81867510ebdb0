/** `/export md`: the active branch as a Markdown document. */
import { textOf, type Message } from "@keel/extensions-api";
import type { Entry, Header } from "./format.ts";

/** A code fence longer than any backtick run in `text`, so the content cannot close it. */
export function fence(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = "`".repeat(longest + 1);
  return `${bar}${lang}\n${text}\n${bar}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

function message(m: Message): string {
  if (m.role === "user") {
    const parts =
      typeof m.content === "string"
        ? [m.content]
        : m.content.map((b) => (b.type === "text" ? b.text : `*[image: ${b.mimeType}]*`));
    return `## User\n\n${parts.join("\n\n")}`;
  }
  if (m.role === "toolResult") {
    return `### ${m.isError ? "Tool error" : "Tool result"}: ${m.toolName}\n\n${fence(textOf(m))}`;
  }
  const out = ["## Assistant"];
  for (const b of m.content) {
    if (b.type === "text" && b.text.trim()) out.push(b.text);
    else if (b.type === "thinking" && !b.redacted && b.thinking.trim())
      out.push(`<details><summary>Thinking</summary>\n\n${b.thinking}\n\n</details>`);
    else if (b.type === "toolCall")
      out.push(`**Tool call:** \`${b.name}\`\n\n${fence(prettyJson(b.arguments), "json")}`);
  }
  if (m.errorMessage) out.push(`*The reply ended with ${m.stopReason}: ${m.errorMessage}*`);
  return out.join("\n\n");
}

/** Pretty-prints JSON arguments; leaves malformed ones as the model wrote them. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function toMarkdown(header: Header, branch: readonly Entry[], name?: string): string {
  const out = [
    `# ${name ?? `Session ${header.id}`}`,
    `- Session: \`${header.id}\`\n- Folder: \`${header.cwd}\`\n- Started: ${header.created}`,
  ];
  for (const e of branch) {
    if (e.type === "message") out.push(message(e.message));
    else if (e.type === "compaction")
      out.push(
        `## Compaction\n\n*${e.tokensBefore.toLocaleString("en-US")} tokens of earlier context were ` +
          `replaced by this summary:*\n\n${quote(e.summary)}`,
      );
    else if (e.type === "branch_summary") out.push(`## Branch summary\n\n${quote(e.summary)}`);
    else if (e.type === "custom_message") out.push(`## ${e.customType}\n\n${e.content}`);
    else if (e.type === "model_change") out.push(`*Model: ${e.provider}/${e.model}*`);
  }
  return out.join("\n\n") + "\n";
}
