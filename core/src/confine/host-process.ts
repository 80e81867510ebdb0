/**
 * Starting one confined plugin's host process and the wire to it: the sandboxed command, the proxy its network
 * goes through, and the end of both when the plugin is disposed or the process dies.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { grantedEnv, type Grants } from "./grants.js";
import { startNetProxy, type NetProxy } from "./net-proxy.js";
import type { ChildHello } from "./protocol.js";
import { keelRoot, sandboxCommand, sandboxEnv } from "./sandbox-command.js";
import { Endpoint, type WireMessage } from "./wire.js";

export interface HostProcess {
  endpoint: Endpoint;
  hello: ChildHello;
  child: ChildProcess;
  /** Ends the process and the proxy; safe to call twice. */
  stop(): void;
}

/** The bundled host program, beside the CLI bundle (core/rolldown.config.mjs builds it). */
export function hostMainFile(): string {
  const core = dirname(createRequire(import.meta.url).resolve("@keel/core/package.json"));
  return join(core, "dist", "plugin-host.cjs");
}

export interface HostProcessOptions {
  grants: Grants;
  dataDir: string;
  bwrap: string | undefined;
  /** A connection the proxy refused. */
  denied(capability: string): void;
  /** The process ended by itself (not by `stop`): code and the tail of what it wrote. */
  ended(why: string): void;
}

export async function startHostProcess(options: HostProcessOptions): Promise<HostProcess> {
  mkdirSync(join(options.dataDir, "tmp"), { recursive: true });
  const { grants } = options;
  const proxy: NetProxy | undefined =
    options.bwrap && grants.net.length > 0 ? await startNetProxy(grants, options.denied) : undefined;
  const command = sandboxCommand({
    grants,
    hostMain: hostMainFile(),
    keelRoot: keelRoot(),
    proxyDir: proxy?.dir ?? options.dataDir,
    bwrap: options.bwrap,
  });
  const child = spawn(command.file, command.args, {
    stdio: ["ignore", 2, 2, "ipc"],
    serialization: "advanced",
    env: sandboxEnv(grantedEnv(grants, process.env), options.dataDir, options.bwrap !== undefined),
    cwd: "/",
  });
  let stopped = false;
  const endpoint = new Endpoint((message) => {
    if (child.connected) child.send(message);
  });
  child.on("message", (message) => endpoint.receive(message as WireMessage));
  const stop = () => {
    if (stopped) return;
    stopped = true;
    endpoint.close(`${grants.plugin}'s host process was stopped`);
    if (child.connected) child.disconnect();
    child.kill("SIGKILL");
    proxy?.close();
  };
  const hello = new Promise<ChildHello>((resolve, reject) => {
    endpoint.onApp = (body) => resolve(body as ChildHello);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      const why = `its host process ended (${signal ?? `exit code ${code}`})`;
      reject(new Error(why));
      if (!stopped) {
        endpoint.close(`${grants.plugin}: ${why}`);
        proxy?.close();
        stopped = true;
        options.ended(why);
      }
    });
  });
  // The host process keeps keel running only while keel waits on it: disposal or keel's exit ends it.
  const channel = child.channel as { ref?(): void; unref?(): void } | undefined;
  child.unref();
  endpoint.onBusy = (busy) => (busy ? channel?.ref?.() : channel?.unref?.());
  try {
    endpoint.onBusy(true);
    const ready = await hello;
    endpoint.onBusy(false);
    return { endpoint, hello: ready, child, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
