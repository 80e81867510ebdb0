/**
 * `keel serve`: checks where to listen, makes the token (or takes `KEEL_SERVE_TOKEN`), opens the first session,
 * listens, prints the address to open, and serves until SIGINT or SIGTERM, when every session is closed (their
 * runs aborted, `session_end` fired) before the command returns.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer as createHttp, type Server } from "node:http";
import { createServer as createHttps } from "node:https";
import type { AddressInfo } from "node:net";
import type { CliContext } from "@keel/extensions-api";
import { serveOptions, type ServeOptions } from "./flags.ts";
import { Guard } from "./guard.ts";
import { httpHandler } from "./http-api.ts";
import { Market } from "./market.ts";
import { Sessions } from "./sessions.ts";
import { socketServer } from "./socket.ts";
import { StaticFiles } from "./static-files.ts";

const MIN_TOKEN_LENGTH = 16;

export async function serve(given: Record<string, unknown>, context: CliContext): Promise<number> {
  const options = serveOptions(given);
  if (typeof options === "string") return fail(context, options);
  const fromEnv = process.env.KEEL_SERVE_TOKEN;
  if (fromEnv !== undefined && fromEnv.length < MIN_TOKEN_LENGTH)
    return fail(context, `KEEL_SERVE_TOKEN is too short to guess hard: give at least ${MIN_TOKEN_LENGTH} characters`);
  const token = fromEnv ?? randomBytes(24).toString("base64url");
  const sessions = new Sessions(context);
  const files = new StaticFiles();
  const market = new Market(context.cwd);
  let server: Server;
  try {
    server = options.tls
      ? createHttps({ cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key) })
      : createHttp();
    await sessions.open();
    await listen(server, options);
  } catch (error) {
    await sessions.closeAll();
    return fail(context, (error as Error).message);
  }
  const port = (server.address() as AddressInfo).port;
  const guard = new Guard(token, options, port);
  const sockets = socketServer(guard, sessions);
  server.on("request", httpHandler({ guard, sessions, market, files }));
  server.on("upgrade", sockets.upgrade);
  sessions.expireIdle(options.idleMs);
  const address = `${options.tls ? "https" : "http"}://${urlHost(options.host)}:${port}/?token=${token}`;
  if (options.exposed && !options.tls) context.stderr(exposedWarning(options));
  if (!files.built)
    context.stderr(`${context.command} serve: the web UI is not built (npm run build); the API works\n`);
  context.stdout(`${context.command} serve: open ${address}\n`);
  await stopSignal();
  sockets.close();
  market.close();
  server.close();
  server.closeAllConnections();
  await sessions.closeAll();
  return 0;
}

function listen(server: Server, options: ServeOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `port ${options.port} on ${options.host} is taken: pick another with --port, or leave it out`
            : `cannot listen on ${options.host}:${options.port}: ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

function exposedWarning(options: ServeOptions): string {
  const line = "!".repeat(100);
  return (
    `${line}\n! keel serve listens on ${options.host} WITHOUT TLS: anyone on the network path can read the token\n` +
    "! and every session, and with the token run commands on this machine with your rights. Give\n" +
    `! --tls-cert and --tls-key, or put it behind a TLS proxy and listen on 127.0.0.1.\n${line}\n`
  );
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function fail(context: CliContext, message: string): number {
  context.stderr(`${context.command} serve: ${message}\n`);
  return 2;
}
