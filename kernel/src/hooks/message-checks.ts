/**
 * Shape checks for what plugins hand the loop at run time (a tool's result, a transform's return value). The
 * types say what is allowed, but a plugin is JavaScript from a stranger: one null block in a result would
 * crash whichever plugin reads it next. Each check answers what is wrong, in words, or undefined.
 */

/** A short rendering of a bad value for a message. */
export function shown(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  text ??= typeof value === "function" ? "a function" : typeof value;
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What is wrong with one text or image block. */
function blockProblem(block: unknown, allowed: readonly string[]): string | undefined {
  if (!isObject(block)) return `is ${shown(block)}`;
  if (!allowed.includes(block.type as string)) return `has type ${shown(block.type)} (allowed: ${allowed.join(", ")})`;
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? undefined : `is a text block whose text is ${shown(block.text)}`;
    case "image":
      return typeof block.data === "string" && typeof block.mimeType === "string"
        ? undefined
        : "is an image block without string data and mimeType";
    case "thinking":
      return typeof block.thinking === "string"
        ? undefined
        : `is a thinking block whose thinking is ${shown(block.thinking)}`;
    case "toolCall":
      return typeof block.id === "string" && typeof block.name === "string" && typeof block.arguments === "string"
        ? undefined
        : "is a tool call without string id, name and arguments";
    default:
      return undefined;
  }
}

function blocksProblem(content: unknown, allowed: readonly string[]): string | undefined {
  if (!Array.isArray(content)) return `its content is ${shown(content)}, not a list of blocks`;
  const problems = content.flatMap((block, i) => {
    const problem = blockProblem(block, allowed);
    return problem ? [`block ${i} ${problem}`] : [];
  });
  return problems.length > 0
    ? problems.slice(0, 5).join("; ") + (problems.length > 5 ? `; and ${problems.length - 5} more` : "")
    : undefined;
}

/** The content of a tool result: text and image blocks. */
export function resultContentProblem(content: unknown): string | undefined {
  return blocksProblem(content, ["text", "image"]);
}

export function toolResultProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.role !== "toolResult") return `expected a tool result message, got ${shown(value)}`;
  if (typeof value.toolCallId !== "string") return "its toolCallId is not a string";
  return resultContentProblem(value.content);
}

export function assistantMessageProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.role !== "assistant") return `expected an assistant message, got ${shown(value)}`;
  if (typeof value.stopReason !== "string") return "its stopReason is not a string";
  if (!isObject(value.usage)) return "it has no usage object";
  return blocksProblem(value.content, ["text", "thinking", "toolCall"]);
}

/** A list of messages (the `context` transform): each with a known role and content of that role's blocks. */
export function messagesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `expected a list of messages, got ${shown(value)}`;
  for (const [i, message] of value.entries()) {
    const problem = messageProblem(message);
    if (problem) return `message ${i}: ${problem}`;
  }
  return undefined;
}

function messageProblem(message: unknown): string | undefined {
  if (!isObject(message)) return `is ${shown(message)}`;
  if (message.role === "assistant") return assistantMessageProblem(message);
  if (message.role === "toolResult") return toolResultProblem(message);
  if (message.role !== "user") return `has role ${shown(message.role)}`;
  return typeof message.content === "string" ? undefined : blocksProblem(message.content, ["text", "image"]);
}
