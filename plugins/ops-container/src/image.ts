/**
 * Making sure the image is there: used as it is when the engine has it, pulled otherwise. A pull reports its
 * failure inside its progress stream, not as an HTTP error, so both are read.
 */
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import { engineMessage } from "./exec.ts";

function isMissing(error: unknown): boolean {
  return (error as { statusCode?: number }).statusCode === 404;
}

/** `signal`: the session ended; a pull under way is dropped. */
export async function ensureImage(
  docker: Docker,
  image: string,
  log: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (error) {
    if (!isMissing(error)) throw new Error(`Cannot look up the image ${image}: ${engineMessage(error)}`);
  }
  log(`Pulling the image ${image}, which this machine does not have yet; the first command waits for it.`);
  try {
    // The modem hands back the HTTP response, a Readable, which the types call a ReadableStream.
    const stream = (await docker.pull(image)) as unknown as Readable;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        stream.destroy();
        reject(new Error("the session ended first"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      docker.modem.followProgress(stream, (error: Error | null, events: { error?: string }[]) => {
        signal?.removeEventListener("abort", onAbort);
        const failed = error?.message ?? events.find((e) => e.error)?.error;
        if (failed) reject(new Error(failed));
        else resolve();
      });
    });
  } catch (error) {
    throw new Error(
      `The image ${image} is not on this machine and could not be pulled: ${engineMessage(error)}. Pull or ` +
        `build it yourself, or set "ops-container.image" to one you have.`,
    );
  }
}
