/** Shared pieces of the session store tests: temp homes, recorder options with readable ids, messages. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  emptyUsage,
  type AssistantMessage,
  type Message,
  type ToolResultMessage,
  type UserMessage,
} from "@keel/extensions-api";
import { SessionRecorder, type RecorderOptions } from "../src/recorder.ts";

export function tempDir(prefix = "keel-sessions-"): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Recorder options whose ids are e1, e2, ... and whose warnings are collected. */
export function options(
  cwd = "/work/project",
  extra: Partial<RecorderOptions> = {},
): RecorderOptions & { warnings: string[] } {
  let n = 0;
  const warnings: string[] = [];
  return { cwd, lock: { staleMs: 10_000 }, newId: () => `e${++n}`, warn: (m) => warnings.push(m), warnings, ...extra };
}

export const user = (text: string): UserMessage => ({ role: "user", content: text, timestamp: 1 });

export function assistant(
  text: string,
  calls: { id: string; name: string; args?: object }[] = [],
  model = "m1",
): AssistantMessage {
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map((c) => ({
        type: "toolCall" as const,
        id: c.id,
        name: c.name,
        arguments: JSON.stringify(c.args ?? {}),
      })),
    ],
    stopReason: calls.length ? "tool_use" : "stop",
    usage: emptyUsage(),
    provider: "scripted",
    model,
    timestamp: 1,
  };
}

export const toolResult = (id: string, name: string, text: string): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: name,
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 1,
});

/** Text of each message, for comparing histories at a glance. */
export function texts(messages: readonly Message[]): string[] {
  return messages.map((m) => {
    if (m.role === "toolResult") return `result:${(m.content[0] as { text: string }).text}`;
    if (m.role === "user" && m.kind) return m.kind;
    if (typeof m.content === "string") return m.content;
    return m.content.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? `call:${b.name}` : "")).join("");
  });
}

/**
 * The seeds' branching example: e1..e6 recorded, the leaf rewound to e4, then e7 (user) and e8 (assistant)
 * appended under it. Returns the recorder, still open.
 */
export function recordSeedsExample(
  dir: string,
  id: string,
  recorderOptions: RecorderOptions = options(),
): SessionRecorder {
  const r = SessionRecorder.start(dir, id, recorderOptions);
  r.recordMessage(user("Read foo.py"));
  r.recordMessage(assistant("", [{ id: "c1", name: "read", args: { path: "foo.py" } }]));
  r.recordMessage(toolResult("c1", "read", "contents of foo.py"));
  r.recordMessage(assistant("foo.py parses the config"));
  r.recordMessage(user("Now add tests for it"));
  r.recordMessage(assistant("Added tests"));
  r.moveTo("e4");
  r.recordMessage(user("Explain bar.py instead"));
  r.recordMessage(assistant("bar.py starts the server"));
  return r;
}
