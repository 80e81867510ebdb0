/**
 * Inside the sandbox the network namespace has only its own loopback: the host process listens on it and
 * passes each connection to keel's proxy through the socket bound in (sandbox-command.ts). The proxy decides
 * which hosts a connection may reach; this only carries bytes, so a plugin that talks to the socket itself
 * gains nothing.
 */
import { connect, createServer } from "node:net";
import { PROXY_PORT, PROXY_SOCKET } from "./sandbox-command.js";

export function startBridge(): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer((client) => {
      const upstream = connect(PROXY_SOCKET);
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    server.on("error", reject);
    server.listen(PROXY_PORT, "127.0.0.1", () => {
      server.unref();
      resolve();
    });
  });
}
