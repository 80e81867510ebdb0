/**
 * Tool activity for people watching a run: one short line per call and the first line of its result, on
 * stderr so stdout keeps only the answer.
 */
import type { Runtime } from "@keel/extensions-api";
import { renderedCall, renderedEntry, renderedResult } from "@keel/extensions-api/render";

const indent = (lines: string[], first: string) => lines.map((l, i) => `${i === 0 ? first : "    "}${l}`).join("\n");

/**
 * One short line per tool call (`● read src/math.ts`) and the first line of its result; a tool that renders
 * itself (`Tool.render`) is shown by its own plain lines, and so is a plugin's session entry with a renderer.
 */
export function showProgress(runtime: Runtime): void {
  const inputs = new Map<string, unknown>();
  runtime.events.on("tool_execution_start", (e) => {
    inputs.set(e.toolCallId, e.input);
    const own = renderedCall(runtime.ui(), e.toolName, e.input);
    if (own) return void process.stderr.write(`${indent(own, "● ")}\n`);
    const input = e.input && typeof e.input === "object" ? (e.input as Record<string, unknown>) : {};
    const first = Object.values(input).find((v) => typeof v === "string") as string | undefined;
    const detail = first ? ` ${first.split("\n")[0]!.slice(0, 80)}` : "";
    process.stderr.write(`● ${e.toolName}${detail}\n`);
  });
  runtime.events.on("tool_execution_end", (e) => {
    const input = inputs.get(e.toolCallId);
    inputs.delete(e.toolCallId);
    const own = renderedResult(runtime.ui(), e.toolName, input, e.result);
    if (own) return void process.stderr.write(`${indent(own, "  ⎿ ")}\n`);
    const text = e.result.content.find((c) => c.type === "text");
    const first = text && text.type === "text" ? (text.text.split("\n").find((line) => line.trim() !== "") ?? "") : "";
    const shown = first.length > 100 ? `${first.slice(0, 99)}…` : first;
    process.stderr.write(e.isError ? `  ✗ ${shown || "failed"}\n` : shown ? `  ⎿ ${shown}\n` : "");
  });
  runtime.events.on("session_entry", ({ entry }) => {
    const own = renderedEntry(runtime.ui(), entry);
    if (own) process.stderr.write(`${own.join("\n")}\n`);
  });
}
