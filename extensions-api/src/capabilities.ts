/**
 * The capability vocabulary of `keel.capabilities`: what a plugin's own code may do. A confined plugin gets these
 * and nothing else (docs/writing-plugins.md, "What a plugin can do"); the user sees them at install and agrees to
 * them in keel.lock. The coarse forms (`fs:read`, `fs:write`, `exec`, `net:*`, `env:*`) are the widest grants.
 */
import { z } from "zod";

/** One capability, parsed. `undefined` in a field is the widest grant of its kind. */
export type Capability =
  | { kind: "fs:read" | "fs:write"; path?: string }
  | { kind: "net"; host?: string; port?: number }
  | { kind: "exec"; command?: string }
  | { kind: "env"; name?: string };

/** The folders a capability's path may start with: `{workspace}`, `{data}` (the plugin's own), `{home}` (or `~`). */
export const PATH_PLACEHOLDERS = ["{workspace}", "{data}", "{home}"] as const;

export const CAPABILITY_FORMS =
  "fs:read, fs:write, fs:read:<path>, fs:write:<path> (a path absolute or under {workspace}, {data}, {home} or ~), " +
  "net:*, net:<host>, net:<host>:<port>, exec, exec:<command>, env:*, env:<NAME>";

const HOST =
  /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$|^\[[0-9a-fA-F:.]+\]$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function pathProblem(path: string): string | undefined {
  if (path.includes("\0")) return "a path cannot hold a NUL byte";
  const startsKnown = path.startsWith("/") || path === "~" || path.startsWith("~/");
  const placeholder = PATH_PLACEHOLDERS.find((p) => path === p || path.startsWith(`${p}/`));
  if (!startsKnown && !placeholder) return `a path must be absolute or start with ${PATH_PLACEHOLDERS.join(", ")} or ~`;
  if (path.split("/").includes("..")) return "a path may not contain ..";
  return undefined;
}

/** Parses one capability; a string is why it is not one. */
export function parseCapability(text: string): Capability | string {
  const bad = (why: string) => `"${text}" is not a capability: ${why}; the forms are ${CAPABILITY_FORMS}`;
  const [head, ...rest] = text.split(":");
  const tail = rest.join(":");
  if (head === "fs") {
    const [mode, ...pathParts] = rest;
    if (mode !== "read" && mode !== "write") return bad(`fs needs read or write`);
    if (pathParts.length === 0) return { kind: `fs:${mode}` };
    const path = pathParts.join(":");
    const problem = pathProblem(path);
    return problem ? bad(problem) : { kind: `fs:${mode}`, path: path.replace(/^~(?=\/|$)/, "{home}") };
  }
  // Bare `net` and `env` were written by plugins before the vocabulary existed: the widest grant, as `*`.
  if (head === "net") {
    if (tail === "*" || rest.length === 0) return { kind: "net" };
    const match = /^(.+?)(?::(\d{1,5}))?$/.exec(tail);
    if (!match || !HOST.test(match[1]!)) return bad("expected net:<host> or net:<host>:<port>");
    const port = match[2] === undefined ? undefined : Number(match[2]);
    if (port !== undefined && (port < 1 || port > 65535)) return bad(`port ${port} is out of range`);
    return { kind: "net", host: match[1]!.toLowerCase(), ...(port === undefined ? {} : { port }) };
  }
  if (head === "exec") {
    if (rest.length === 0) return { kind: "exec" };
    return tail.length > 0 && !/[\s\0]/.test(tail) ? { kind: "exec", command: tail } : bad("expected exec:<command>");
  }
  if (head === "env") {
    if (tail === "*" || rest.length === 0) return { kind: "env" };
    return ENV_NAME.test(tail) ? { kind: "env", name: tail } : bad("expected env:<NAME> or env:*");
  }
  return bad(`unknown kind "${head}"`);
}

/** A capability in the manifest: a string in one of the forms of `CAPABILITY_FORMS`. */
export const CapabilitySchema = z.string().superRefine((text, ctx) => {
  const parsed = parseCapability(text);
  if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
});

/** Capabilities that parse (the manifest schema has refused the others). */
export function parseCapabilities(texts: readonly string[]): Capability[] {
  return texts.map(parseCapability).filter((c): c is Capability => typeof c !== "string");
}

const within = (root: string, path: string) => path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);

/** Whether `granted` allows everything `wanted` allows (an update asks again only for what no grant covers). */
export function capabilityCovers(granted: string, wanted: string): boolean {
  const g = parseCapability(granted);
  const w = parseCapability(wanted);
  if (typeof g === "string" || typeof w === "string") return granted === wanted;
  if (g.kind !== w.kind) return false;
  switch (g.kind) {
    case "fs:read":
    case "fs:write": {
      const wp = (w as typeof g).path;
      return g.path === undefined || (wp !== undefined && within(g.path, wp));
    }
    case "net": {
      const wn = w as typeof g;
      if (g.host === undefined) return true;
      if (wn.host === undefined) return false;
      const hostFits = g.host.startsWith("*.") ? wn.host.endsWith(g.host.slice(1)) : g.host === wn.host;
      return hostFits && (g.port === undefined || g.port === wn.port);
    }
    case "exec":
      return g.command === undefined || g.command === (w as typeof g).command;
    case "env":
      return g.name === undefined || g.name === (w as typeof g).name;
  }
}

/** The capabilities of `next` that none of `previous` covers: what an update asks the user again for. */
export function addedCapabilities(previous: readonly string[], next: readonly string[]): string[] {
  return next.filter((wanted) => !previous.some((granted) => capabilityCovers(granted, wanted)));
}

/** What a capability lets a plugin do, in words, for the install prompt and listings. */
export function describeCapability(text: string): string {
  const c = parseCapability(text);
  if (typeof c === "string") return text;
  switch (c.kind) {
    case "fs:read":
      return c.path ? `read files under ${c.path}` : "read any file you can read";
    case "fs:write":
      return c.path ? `write files under ${c.path}` : "write any file you can write";
    case "net":
      return c.host ? `connect to ${c.host}${c.port ? ` port ${c.port}` : ""}` : "connect to any host";
    case "exec":
      return c.command ? `run ${c.command}` : "run any program";
    case "env":
      return c.name ? `read the environment variable ${c.name}` : "read every environment variable (API keys too)";
  }
}

/** Where a capability's placeholders point for one plugin in one session. */
export interface CapabilityPlaces {
  workspace: string;
  data: string;
  home: string;
}

/** A path capability with its placeholder replaced by the folder it stands for. */
export function resolveCapabilityPath(path: string, places: CapabilityPlaces): string {
  for (const key of ["workspace", "data", "home"] as const) {
    const placeholder = `{${key}}`;
    if (path === placeholder || path.startsWith(`${placeholder}/`)) return places[key] + path.slice(placeholder.length);
  }
  return path;
}
