/** Reaching Redis: the queue's address, and a first connection that fails loudly instead of retrying forever. */
export interface RedisQueue {
  url: string;
  name: string;
}

/** The URL without its password, for messages. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/([^@/]*):[^@/]*@/, "//$1:***@");
}

/** What the three BullMQ clients share for this: they emit `error` and can be awaited until ready. */
export interface Client {
  waitUntilReady(): Promise<unknown>;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** Resolves once `client` has reached Redis; rejects with what went wrong instead of retrying forever. */
export async function reached(client: Client, url: string): Promise<void> {
  let onError: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = (error) => reject(new Error(`cannot reach Redis at ${shownUrl(url)}: ${error.message}`));
  });
  client.on("error", onError);
  try {
    await Promise.race([client.waitUntilReady(), failed]);
  } finally {
    client.off("error", onError);
  }
}
