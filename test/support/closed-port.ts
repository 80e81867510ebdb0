/** A port on 127.0.0.1 nothing listens on: one the system handed out and was given back. */
import { createServer, type AddressInfo } from "node:net";

export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
