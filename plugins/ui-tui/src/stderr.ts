/**
 * While the TUI owns the screen, text written to stderr (keel's plugin errors and warnings, plugins' console
 * output) would land in the middle of the drawing; it is shown as notices in the conversation instead.
 */
export function captureStderr(show: (text: string) => void): () => void {
  const original = process.stderr.write.bind(process.stderr);
  let pending = "";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const end = pending.lastIndexOf("\n");
    if (end >= 0) {
      show(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
    const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stderr.write;
  return () => {
    process.stderr.write = original;
    if (pending) original(`${pending}\n`);
  };
}
