/**
 * Tool activity for people watching a run: one short line per call and the first line of its result, on
 * stderr so stdout keeps only the answer.
 */
import type { Runtime } from "@keel/extensions-api";

export /** One short line per tool call (`● read src/math.ts`) and the first line of its result. */
function showProgress(runtime: Runtime): void {
  runtime.events.on("tool_execution_start", (e) => {
    const input = e.input && typeof e.input === "object" ? (e.input as Record<string, unknown>) : {};
    const first = Object.values(input).find((v) => typeof v === "string") as string | undefined;
    const detail = first ? ` ${first.split("\n")[0]!.slice(0, 80)}` : "";
    process.stderr.write(`● ${e.toolName}${detail}\n`);
  });
  runtime.events.on("tool_execution_end", (e) => {
    const text = e.result.content.find((c) => c.type === "text");
    const first = text && text.type === "text" ? (text.text.split("\n").find((line) => line.trim() !== "") ?? "") : "";
    const shown = first.length > 100 ? `${first.slice(0, 99)}…` : first;
    process.stderr.write(e.isError ? `  ✗ ${shown || "failed"}\n` : shown ? `  ⎿ ${shown}\n` : "");
  });
}
