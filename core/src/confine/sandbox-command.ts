/**
 * The command line that starts a confined plugin's host process: Node's permission model (files, child
 * processes, workers, addons) inside bubblewrap (its own mount, pid and network namespaces: only the granted
 * folders exist, keel's process and its /proc/<pid>/environ are not there, and the only way out is the proxy's
 * socket). Both layers hold the same grants; either alone would leave a gap (Node 22 and 24 do not govern the
 * network; bubblewrap does not stop a worker or an addon).
 */
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Grants } from "./grants.js";

/** Where, inside the sandbox, the host process listens for the plugin's connections to pass to keel's proxy. */
export const PROXY_PORT = 3128;
/** The proxy's socket, inside the sandbox. */
export const PROXY_SOCKET = "/run/keel/proxy.sock";

/** The system folders a Node process needs to start, read-only. */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc"];

export interface SandboxPlan {
  grants: Grants;
  hostMain: string;
  /** The folder holding keel's code and its dependencies (read-only). */
  keelRoot: string;
  /** The folder of the proxy's socket on this side. */
  proxyDir: string;
  /** The bubblewrap program, or undefined to run under Node's permission model alone (the user opted in). */
  bwrap: string | undefined;
}

/** The folder of the node_modules that holds keel's dependencies: all keel's code a host process loads. */
export function keelRoot(): string {
  const jiti = dirname(createRequire(import.meta.url).resolve("jiti/package.json"));
  let dir = realpathSync(jiti);
  while (!dir.endsWith("/node_modules") && dir !== "/") dir = dirname(dir);
  return dirname(dir);
}

const real = (path: string) => (existsSync(path) ? realpathSync(path) : undefined);

function nodeFlags(plan: SandboxPlan): string[] {
  const { grants } = plan;
  const all = (list: string[]) => list.includes("/");
  const node = dirname(realpathSync(process.execPath));
  // /run/keel holds only the proxy's socket; the plugin's temporary files go in its data folder (TMPDIR).
  const own = plan.bwrap ? [dirname(PROXY_SOCKET)] : [];
  const read = all(grants.read) ? ["*"] : [...new Set([plan.keelRoot, node, ...grants.read, ...own])];
  const write = all(grants.write) ? ["*"] : [...new Set([...grants.write, ...own])];
  const flags = ["--permission", "--max-semi-space-size=1", "--disable-warning=UNDICI-EHPA"];
  for (const path of read) flags.push(`--allow-fs-read=${path}`);
  for (const path of write) flags.push(`--allow-fs-write=${path}`);
  if (grants.exec.length > 0) flags.push("--allow-child-process");
  // Node 26 governs the network too; the sandbox's namespace holds it to the proxy on every line.
  if (grants.net.length > 0 && process.allowedNodeEnvironmentFlags.has("--allow-net")) flags.push("--allow-net");
  return flags;
}

function bwrapArgs(plan: SandboxPlan): string[] {
  const args = ["--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL"];
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run");
  for (const dir of SYSTEM) if (existsSync(dir)) args.push("--ro-bind", dir, dir);
  const bindings = new Map<string, "ro" | "rw">();
  const node = dirname(realpathSync(process.execPath));
  for (const path of [plan.keelRoot, node, ...plan.grants.read]) if (path !== "/") bindings.set(path, "ro");
  for (const path of plan.grants.write) if (path !== "/") bindings.set(path, "rw");
  // Shorter paths first, so a writable folder inside a read-only one is bound over it.
  for (const [path, mode] of [...bindings].sort(([a], [b]) => a.length - b.length)) {
    const source = real(path);
    if (source) args.push(mode === "ro" ? "--ro-bind" : "--bind", source, path);
  }
  if (plan.grants.read.includes("/")) args.push("--ro-bind", "/home", "/home");
  args.push("--bind", plan.proxyDir, dirname(PROXY_SOCKET));
  return args;
}

/** The program and arguments that start the host process. */
export function sandboxCommand(plan: SandboxPlan): { file: string; args: string[] } {
  const node = [realpathSync(process.execPath), ...nodeFlags(plan), plan.hostMain];
  if (!plan.bwrap) return { file: node[0]!, args: node.slice(1) };
  return { file: plan.bwrap, args: [...bwrapArgs(plan), "--", ...node] };
}

/**
 * The environment of the host process: the granted variables, and in bubblewrap the proxy, which Node's own
 * fetch and http use (NODE_USE_ENV_PROXY).
 */
export function sandboxEnv(env: Record<string, string>, dataDir: string, bwrap: boolean): Record<string, string> {
  const proxy = `http://127.0.0.1:${PROXY_PORT}`;
  const viaProxy: Record<string, string> = bwrap
    ? { NODE_USE_ENV_PROXY: "1", HTTP_PROXY: proxy, HTTPS_PROXY: proxy }
    : {};
  return { ...env, ...viaProxy, KEEL_CACHE_DIR: join(dataDir, ".cache"), TMPDIR: join(dataDir, "tmp") };
}
