/**
 * A confined plugin's capabilities made concrete for one session: placeholders replaced by folders, and the
 * plugin's own folder (read) and data folder (read and write) added. The sandbox is built from this and nothing
 * else; the host process reads it to name the capability a refused call needed.
 */
import { parseCapabilities, resolveCapabilityPath, type CapabilityPlaces } from "@keel/extensions-api";

export interface Grants {
  plugin: string;
  /** Paths readable (a `/` entry: every path), writable, hosts reachable (`*`: any), programs (`*`: any). */
  read: string[];
  write: string[];
  net: { host: string; port?: number }[];
  exec: string[];
  /** Environment variable names passed through; `*`: every one. */
  env: string[];
}

export function grantsOf(
  plugin: string,
  capabilities: readonly string[],
  places: CapabilityPlaces & { dir: string },
): Grants {
  const grants: Grants = { plugin, read: [places.dir, places.data], write: [places.data], net: [], exec: [], env: [] };
  for (const c of parseCapabilities(capabilities)) {
    if (c.kind === "fs:read") grants.read.push(c.path ? resolveCapabilityPath(c.path, places) : "/");
    else if (c.kind === "fs:write") grants.write.push(c.path ? resolveCapabilityPath(c.path, places) : "/");
    else if (c.kind === "net")
      grants.net.push(c.host ? { host: c.host, ...(c.port ? { port: c.port } : {}) } : { host: "*" });
    else if (c.kind === "exec") grants.exec.push(c.command ?? "*");
    else if (c.kind === "env") grants.env.push(c.name ?? "*");
  }
  // What may be written may be read.
  grants.read.push(...grants.write);
  return grants;
}

/** Whether `grants` let the plugin reach `host` on `port`. */
export function admitsHost(grants: Grants, host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "");
  return grants.net.some((g) => {
    const fits = g.host === "*" || g.host === name || (g.host.startsWith("*.") && name.endsWith(g.host.slice(1)));
    return fits && (g.port === undefined || g.port === port);
  });
}

/** The environment a confined plugin sees: the declared variables that are set, and nothing else. */
export function grantedEnv(grants: Grants, env: NodeJS.ProcessEnv): Record<string, string> {
  const all = grants.env.includes("*");
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && (all || grants.env.includes(entry[0])),
    ),
  );
}

/** The capability that would have allowed a refused call, from Node's permission error. */
export function neededCapability(permission: string | undefined, resource: string | undefined): string | undefined {
  if (permission === "FileSystemRead") return `fs:read:${resource ?? "<path>"}`;
  if (permission === "FileSystemWrite") return `fs:write:${resource ?? "<path>"}`;
  if (permission === "ChildProcess") return resource ? `exec:${resource.split("/").pop()}` : "exec";
  return undefined;
}
