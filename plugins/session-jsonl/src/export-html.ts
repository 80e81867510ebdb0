/**
 * `/export html`: the active branch as one self-contained page: styles inline, images as data URIs, no
 * scripts and nothing fetched. Every piece of session text is HTML-escaped.
 */
import type { Message } from "@keel/extensions-api";
import type { Entry, Header } from "./format.ts";
import { prettyJson } from "./export-markdown.ts";

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.4rem}.meta{color:#666;font-size:.85rem}
section{border-left:4px solid #ccc;padding:.25rem 1rem;margin:1rem 0}
section.user{border-color:#3b82f6}section.assistant{border-color:#10b981}section.tool{border-color:#a3a3a3}
section.error{border-color:#ef4444}section.summary{border-color:#f59e0b;background:#fffbeb}
.role{font-weight:600;font-size:.8rem;text-transform:uppercase;color:#555}
pre{background:#f5f5f7;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-word;font-size:.85rem}
.text{white-space:pre-wrap}img{max-width:100%}`;

const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp)$/;

function block(kind: string, role: string, body: string): string {
  return `<section class="${kind}"><div class="role">${escapeHtml(role)}</div>${body}</section>`;
}

const text = (t: string) => `<div class="text">${escapeHtml(t)}</div>`;
const pre = (t: string) => `<pre>${escapeHtml(t)}</pre>`;

function message(m: Message): string {
  if (m.role === "user") {
    const parts =
      typeof m.content === "string"
        ? [text(m.content)]
        : m.content.map((b) =>
            b.type === "text"
              ? text(b.text)
              : SAFE_IMAGE.test(b.mimeType)
                ? `<img alt="image" src="data:${b.mimeType};base64,${b.data.replace(/[^A-Za-z0-9+/=]/g, "")}">`
                : "",
          );
    return block("user", m.kind ?? "user", parts.join(""));
  }
  if (m.role === "toolResult") {
    const body = m.content.map((b) => (b.type === "text" ? pre(b.text) : "")).join("");
    return block(m.isError ? "tool error" : "tool", `${m.isError ? "tool error" : "tool result"}: ${m.toolName}`, body);
  }
  const parts: string[] = [];
  for (const b of m.content) {
    if (b.type === "text" && b.text.trim()) parts.push(text(b.text));
    else if (b.type === "thinking" && !b.redacted && b.thinking.trim())
      parts.push(`<details><summary>Thinking</summary>${text(b.thinking)}</details>`);
    else if (b.type === "toolCall")
      parts.push(`<div><b>Tool call:</b> <code>${escapeHtml(b.name)}</code></div>${pre(prettyJson(b.arguments))}`);
  }
  if (m.errorMessage)
    parts.push(`<p><em>The reply ended with ${escapeHtml(m.stopReason)}: ${escapeHtml(m.errorMessage)}</em></p>`);
  return block(m.stopReason === "error" ? "assistant error" : "assistant", "assistant", parts.join(""));
}

export function toHtml(header: Header, branch: readonly Entry[], name?: string): string {
  const title = name ?? `Session ${header.id}`;
  const body: string[] = [];
  for (const e of branch) {
    if (e.type === "message") body.push(message(e.message));
    else if (e.type === "compaction")
      body.push(
        block("summary", `compaction: ${e.tokensBefore.toLocaleString("en-US")} tokens summarised`, text(e.summary)),
      );
    else if (e.type === "branch_summary") body.push(block("summary", "branch summary", text(e.summary)));
    else if (e.type === "custom_message") body.push(block("user", e.customType, text(e.content)));
  }
  const meta = `Session ${escapeHtml(header.id)} · ${escapeHtml(header.cwd)} · started ${escapeHtml(header.created)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1><p class="meta">${meta}</p>
${body.join("\n")}
</body></html>
`;
}
