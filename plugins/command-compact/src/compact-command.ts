/** `/compact [instructions]`: compacts now and says by how much, or why nothing was compacted. */
import type { Runtime } from "@keel/extensions-api";

export async function runCompact(args: string, runtime: Runtime): Promise<void> {
  if (runtime.isRunning) {
    runtime.notify(
      "/compact: the agent is working; wait until it stops (or abort it), then run /compact again.",
      "warning",
    );
    return;
  }
  const instructions = args.trim() || undefined;
  try {
    const result = await runtime.compact(instructions);
    if (!result) {
      runtime.notify(
        "/compact: nothing was compacted (the conversation is too short, a plugin blocked it, or no " +
          "compaction strategy is installed).",
        "info",
      );
      return;
    }
    runtime.notify(
      `/compact: context went from about ${fmt(result.tokensBefore)} to ${fmt(result.tokensAfter)} tokens.`,
      "info",
    );
  } catch (error) {
    runtime.notify(`/compact failed: ${(error as Error).message}`, "error");
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
