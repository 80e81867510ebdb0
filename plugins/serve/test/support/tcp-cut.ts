/**
 * A TCP relay in front of a server, whose connections a test can cut at a chosen moment: a network that drops,
 * with both ends left to notice as they would.
 */
import { createServer, connect, type Socket } from "node:net";

export interface Relay {
  /** The relay's origin (`http://127.0.0.1:<port>`). */
  origin: string;
  /** Destroys every connection open through the relay now; new ones are relayed again. */
  cut(): void;
  close(): Promise<void>;
}

/** `target()` is asked at each connection: the relay may listen before the server it relays to does. */
export async function relay(target: () => URL): Promise<Relay> {
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    const { port, hostname } = target();
    const outbound = connect(Number(port), hostname);
    for (const socket of [inbound, outbound]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    cut() {
      for (const socket of open) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
