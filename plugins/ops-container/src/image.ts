/**
 * Making sure the image is there: used as it is when the engine has it, pulled otherwise. A pull reports its
 * failure inside its progress stream, not as an HTTP error, so both are read.
 */
import type Docker from "dockerode";
import { engineMessage } from "./exec.ts";

function isMissing(error: unknown): boolean {
  return (error as { statusCode?: number }).statusCode === 404;
}

export async function ensureImage(docker: Docker, image: string, log: (text: string) => void): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (error) {
    if (!isMissing(error)) throw new Error(`Cannot look up the image ${image}: ${engineMessage(error)}`);
  }
  log(`Pulling the image ${image}...`);
  try {
    const stream = await docker.pull(image);
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (error: Error | null, events: { error?: string }[]) => {
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
