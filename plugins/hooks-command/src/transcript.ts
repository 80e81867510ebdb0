/**
 * The file `transcript_path` names: the conversation in Claude Code's transcript shape (one JSON object a
 * line, `{ type: "user" | "assistant", message: { role, content: [...] }, uuid, parentUuid, sessionId, … }`,
 * tool calls as `tool_use` blocks with Claude Code's tool names and inputs, results as `tool_result` blocks),
 * because scripts written for Claude Code parse that shape (a Stop hook reading the last assistant text).
 * keel's own session file has another shape and may not exist (`--no-session`, before the first prompt), so
 * this is a view written for hooks, kept in the session's data folder and brought up to date before each
 * hook runs: new messages are appended; a history that changed under it (a compaction, a jump in the tree)
 * is written again whole, by write-and-rename.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@keel/extensions-api";
import { wireCall } from "./tool-wire.ts";

export class Transcript {
  private written: readonly Message[] = [];
  private lastUuid: string | null = null;
  private file: string | undefined;

  /** Brings the file of `dataDir` up to date with `messages` and returns its path. */
  sync(dataDir: string, sessionId: string, cwd: string, messages: readonly Message[]): string {
    const file = join(dataDir, "transcript.jsonl");
    const extends_ =
      file === this.file && messages.length >= this.written.length && this.written.every((m, i) => messages[i] === m);
    if (!extends_) {
      this.lastUuid = null;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, this.lines(messages, sessionId, cwd));
      renameSync(tmp, file);
    } else if (messages.length > this.written.length) {
      appendFileSync(file, this.lines(messages.slice(this.written.length), sessionId, cwd));
    }
    this.file = file;
    this.written = [...messages];
    return file;
  }

  private lines(messages: readonly Message[], sessionId: string, cwd: string): string {
    let out = "";
    for (const message of messages) {
      const uuid = randomUUID();
      const line = {
        type: message.role === "assistant" ? "assistant" : "user",
        uuid,
        parentUuid: this.lastUuid,
        sessionId,
        cwd,
        timestamp: new Date(message.timestamp).toISOString(),
        message: wireMessage(message, cwd),
      };
      this.lastUuid = uuid;
      out += `${JSON.stringify(line)}\n`;
    }
    return out;
  }
}

/** A keel message in the Anthropic Messages shape Claude Code's transcript keeps. */
function wireMessage(message: Message, cwd: string): Record<string, unknown> {
  if (message.role === "user") {
    if (typeof message.content === "string") return { role: "user", content: message.content };
    const content = message.content.map((b) =>
      // Image data would make the file as large as the images; a script reading a transcript wants the text.
      b.type === "text" ? b : { type: "text", text: `[image ${b.mimeType}]` },
    );
    return { role: "user", content };
  }
  if (message.role === "toolResult") {
    const text = message.content.map((b) => (b.type === "text" ? b.text : `[image ${b.mimeType}]`)).join("");
    const result = { type: "tool_result", tool_use_id: message.toolCallId, content: text, is_error: message.isError };
    return { role: "user", content: [result] };
  }
  const content = message.content.map((b) => {
    if (b.type === "text") return { type: "text", text: b.text };
    if (b.type === "thinking") return { type: "thinking", thinking: b.thinking };
    const call = wireCall(b.name, parseArguments(b.arguments), cwd);
    return { type: "tool_use", id: b.id, name: call.name, input: call.input };
  });
  return { role: "assistant", model: message.model, content, stop_reason: message.stopReason };
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
