/**
 * A session's conversation: user turns, replies (thinking folded), and each tool call with its result beside it
 * — a diff when the result carries one, what the tool's plugin renders when it does, and the output folded when
 * long.
 */
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from "@keel/extensions-api";
import { resultsById, type ToolRun } from "./conversation.ts";
import "./messages.css";

const FOLD_LINES = 12;

export function Messages(props: { messages: Message[]; streaming?: AssistantMessage; tools: Record<string, ToolRun> }) {
  const results = resultsById(props.messages);
  return (
    <ol class="messages" aria-label="Conversation">
      {props.messages.map((message, i) =>
        message.role === "toolResult" ? null : (
          <MessageView key={i} message={message} results={results} tools={props.tools} />
        ),
      )}
      {props.streaming && <MessageView message={props.streaming} results={results} tools={props.tools} streaming />}
    </ol>
  );
}

function MessageView(props: {
  message: Message;
  results: Map<string, ToolResultMessage>;
  tools: Record<string, ToolRun>;
  streaming?: boolean;
}) {
  const { message } = props;
  if (message.role === "user") {
    const text = typeof message.content === "string" ? message.content : message.content.map(partText).join("");
    return (
      <li class={`message user${message.kind ? " note" : ""}`}>
        {message.kind && <div class="label">{message.kind.replace("_", " ")}</div>}
        <div class="text">{text}</div>
      </li>
    );
  }
  if (message.role !== "assistant") return null;
  return (
    <li class={`message assistant${props.streaming ? " streaming" : ""}`}>
      {message.content.map((block, i) =>
        block.type === "thinking" ? (
          <details key={i} class="thinking">
            <summary>Thinking</summary>
            <div class="text">{block.redacted ? "(hidden by the provider)" : block.thinking}</div>
          </details>
        ) : block.type === "text" ? (
          <div key={i} class="text">
            {block.text}
          </div>
        ) : (
          <ToolCallView key={i} call={block} result={props.results.get(block.id)} run={props.tools[block.id]} />
        ),
      )}
      {message.stopReason === "error" || message.stopReason === "aborted" ? (
        <div class="error">{message.errorMessage ?? message.stopReason}</div>
      ) : null}
    </li>
  );
}

function ToolCallView(props: { call: ToolCall; result?: ToolResultMessage; run?: ToolRun }) {
  const { call, result, run } = props;
  const running = run?.running ?? result === undefined;
  const diff = diffOf(result);
  const output = result?.content.map(partText).join("") ?? "";
  const title = run?.callLines?.join("\n") ?? `${call.name} ${summary(call.arguments)}`;
  return (
    <section
      class={`tool${result?.isError ? " failed" : ""}${running ? " running" : ""}`}
      aria-label={`Tool ${call.name}`}
    >
      <header>
        <span class="tool-name">{title}</span>
        {running && <span class="status">running…</span>}
      </header>
      {diff ? (
        <Diff text={diff} />
      ) : run?.resultLines?.length ? (
        <pre class="rendered">{run.resultLines.join("\n")}</pre>
      ) : null}
      {output && <Output text={output} folded={diff !== undefined} />}
    </section>
  );
}

/** A tool's output; folded when long, or when its gist is shown already (a diff). */
function Output(props: { text: string; folded: boolean }) {
  const lines = props.text.split("\n");
  if (lines.length <= FOLD_LINES && !props.folded) return <pre class="output">{props.text}</pre>;
  return (
    <details class="output">
      <summary>{`${lines.slice(0, 2).join(" ⏎ ")} … (${lines.length} lines)`}</summary>
      <pre>{props.text}</pre>
    </details>
  );
}

function Diff(props: { text: string }) {
  const lines = props.text.split("\n").filter((l) => l !== "" && !l.startsWith("---") && !l.startsWith("+++"));
  return (
    <pre class="diff" aria-label="Diff">
      {lines.map((line, i) => (
        <div
          key={i}
          class={line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : ""}
        >
          {line}
        </div>
      ))}
    </pre>
  );
}

/** A unified diff a tool's result carries in its details (file edits do), if any. */
function diffOf(result: ToolResultMessage | undefined): string | undefined {
  const details = result?.details as { diff?: unknown } | undefined;
  return typeof details?.diff === "string" && !result?.isError ? details.diff : undefined;
}

function partText(part: { type: string; text?: string }): string {
  return part.type === "text" ? (part.text ?? "") : `[${part.type}]`;
}

/** A call's arguments in one short line. */
function summary(argumentsText: string): string {
  try {
    const parsed = JSON.parse(argumentsText) as Record<string, unknown>;
    const text = Object.values(parsed)
      .map((v) => (typeof v === "string" ? v : JSON.stringify(v)))
      .join(" ");
    return text.length > 160 ? `${text.slice(0, 160)}…` : text;
  } catch {
    return argumentsText.slice(0, 160);
  }
}
