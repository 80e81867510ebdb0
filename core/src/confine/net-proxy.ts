/**
 * keel's side of a confined plugin's network: an HTTP proxy on a unix socket that only the plugin's sandbox
 * can reach, admitting CONNECT tunnels and plain requests to the hosts the plugin declared (`net:<host>[:<port>]`)
 * and refusing the rest with a 403 that names the capability. keel resolves the names, so the sandbox needs no
 * DNS and a plugin cannot reach anything by address that it could not by name.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admitsHost, type Grants } from "./grants.js";

export interface NetProxy {
  /** The folder holding the socket `proxy.sock`, bound into the sandbox. */
  dir: string;
  close(): void;
}

export async function startNetProxy(grants: Grants, denied: (capability: string) => void): Promise<NetProxy> {
  const dir = mkdtempSync(join(tmpdir(), "keel-proxy-"));
  const refuse = (host: string, port: number) => {
    const capability = `net:${host}${port === 443 || port === 80 ? "" : `:${port}`}`;
    denied(capability);
    return `${grants.plugin} may not connect to ${host}:${port}: declare "${capability}" in keel.capabilities\n`;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("keel's proxy takes absolute URLs\n");
      return;
    }
    const port = Number(target.port || 80);
    if (target.protocol !== "http:" || !admitsHost(grants, target.hostname, port)) {
      res.writeHead(403, { "content-type": "text/plain" }).end(refuse(target.hostname, port));
      return;
    }
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (error) => res.destroy(error));
    req.pipe(upstream);
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? "");
    const host = match?.[1] ?? "";
    const port = Number(match?.[2] ?? 0);
    if (!match || !admitsHost(grants, host, port)) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${refuse(host, port)}`);
      return;
    }
    const upstream = connect(port, host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(join(dir, "proxy.sock"), resolve);
  });
  server.unref();
  return {
    dir,
    close() {
      server.close();
      server.closeAllConnections();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
