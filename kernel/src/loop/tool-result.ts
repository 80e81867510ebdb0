/**
 * The boundary between a tool and the history. What a tool returned is checked and copied into a plain result
 * before anyone else sees it — other plugins' transforms, UIs, session stores — so a tool that breaks the
 * contract gets an error result naming it and its plugin, and never breaks another plugin.
 */
import {
  resultContent,
  type PluginRef,
  type ToolCall,
  type ToolResult,
  type ToolResultMessage,
} from "@keel/extensions-api";
import { resultContentProblem, shown } from "../hooks/message-checks.js";

/** Reports a contract break by a tool to the user, naming the tool's plugin. */
export type ToolFault = (plugin: PluginRef, message: string, severity: "error" | "warning") => void;

/** A tool's output as a result message; a bare string is one text block. */
export function toResultMessage(
  call: ToolCall,
  output: unknown,
  plugin: PluginRef,
  fault: ToolFault,
): ToolResultMessage {
  if (typeof output === "string") return textResult(call, output, false);
  const problem = resultProblem(output);
  if (problem) {
    fault(plugin, `tool "${call.name}" ${problem}; the model was told the call failed.`, "error");
    const text =
      `The tool "${call.name}" ${problem}: a bug in the plugin ${plugin.name} (execute ` +
      `must resolve { content: text, or a list of text and image blocks }). Nothing it returned was kept.`;
    return textResult(call, text, true);
  }
  const result = output as ToolResult;
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: resultContent(result.content),
    isError: result.isError === true,
    timestamp: Date.now(),
  };
  if (result.details !== undefined) {
    const details = plainDetails(result.details);
    if (details.repaired) {
      const kept = details.value === undefined ? "they were left out" : "they were kept with those values replaced";
      fault(
        plugin,
        `tool "${call.name}" returned details that are not plain JSON data (${details.repaired}); ${kept}.`,
        "warning",
      );
    }
    if (details.value !== undefined) message.details = details.value;
  }
  return message;
}

/** What makes a tool's output (or progress update) unusable, or undefined when it is a proper `ToolResult`. */
export function resultProblem(output: unknown): string | undefined {
  if (output === undefined || output === null) return "returned no content";
  if (typeof output !== "object") return `returned ${shown(output)} instead of { content }`;
  const content = (output as { content?: unknown }).content;
  if (content === undefined || content === null) return "returned no content";
  if (typeof content === "string") return undefined;
  const problem = resultContentProblem(content);
  return problem ? `returned content keel cannot use (${problem})` : undefined;
}

export function textResult(call: ToolCall, text: string, isError: boolean): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    isError,
    timestamp: Date.now(),
  };
}

/**
 * A copy of `details` that any session store can write and any UI can clone: BigInts become strings, a value
 * met again inside itself becomes "[Circular]", functions and symbols go (as in JSON). Undefined when even
 * that fails (a getter that throws, nesting deep enough to overflow).
 */
function plainDetails(details: unknown): { value: unknown; repaired?: string } {
  const repairs = new Set<string>();
  const ancestors: object[] = [];
  const replacer = function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === "bigint") {
      repairs.add("a BigInt, kept as a string");
      return value.toString();
    }
    if (typeof value !== "object" || value === null) return value;
    // JSON.stringify calls the replacer with the holder as `this`: drop ancestors that are no longer above us.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) {
      repairs.add('a circular reference, kept as "[Circular]"');
      return "[Circular]";
    }
    ancestors.push(value);
    return value;
  };
  try {
    const text = JSON.stringify(details, replacer);
    return {
      value: text === undefined ? undefined : JSON.parse(text),
      repaired: repairs.size > 0 ? [...repairs].join(", ") : undefined,
    };
  } catch (error) {
    return { value: undefined, repaired: `serialising them failed: ${(error as Error).message}` };
  }
}
