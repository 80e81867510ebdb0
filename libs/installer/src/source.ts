/**
 * What the user typed after `keel install`, read as one kind of source. npm-package-arg reads npm and git specs
 * as npm itself does; keel adds its prefixes (`npm:`, `git:`) so a bare word is never guessed at: a bare name is
 * looked up in the added catalogs, and only there.
 */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import npa from "npm-package-arg";

export type Source =
  /** A package of the npm registry: `npm:@acme/x@^1.2`. */
  | { kind: "npm"; name: string; range: string }
  /** A bare name (and range), resolved through the catalogs: `notify`, `notify@^1`, `notify@acme`. */
  | { kind: "catalog"; name: string; range: string; qualifier?: string }
  /** A git repository and an optional ref: `git:https://host/repo.git#v1.2.0`, `git:file:///srv/repo#main`. */
  | { kind: "git"; url: string; ref?: string }
  /** A local folder, linked (not copied) for development. */
  | { kind: "folder"; path: string }
  /** A tarball on disk. */
  | { kind: "tarball"; path: string }
  /** A tarball at an https URL. */
  | { kind: "remote"; url: string };

/** The source as keel.lock records it; `parseSource` reads it back. */
export function sourceText(source: Source): string {
  switch (source.kind) {
    case "npm":
      return `npm:${source.name}@${source.range}`;
    case "catalog":
      return `${source.name}@${source.range}${source.qualifier ? `@${source.qualifier}` : ""}`;
    case "git":
      return `git:${source.url}${source.ref ? `#${source.ref}` : ""}`;
    case "folder":
      return `link:${source.path}`;
    case "tarball":
      return `file:${source.path}`;
    case "remote":
      return source.url;
  }
}

/** The spec pacote fetches, for every kind but `folder` and `catalog`. */
export function fetchSpec(source: Source): string {
  switch (source.kind) {
    case "npm":
      return `${source.name}@${source.range}`;
    case "git":
      return `git+${source.url}${source.ref ? `#${source.ref}` : ""}`;
    case "tarball":
      return source.path;
    case "remote":
      return source.url;
    default:
      throw new Error(`a ${source.kind} source is not fetched`);
  }
}

const PATH_START = /^(\.{1,2}(\/|$)|\/|~\/)/;

/** Reads `text` (relative paths against `cwd`); throws a message saying what was expected. */
export function parseSource(text: string, cwd: string): Source {
  if (text.startsWith("npm:")) {
    const spec = registrySpec(text.slice(4), text);
    return { kind: "npm", name: spec.name, range: spec.range };
  }
  if (text.startsWith("git:") || text.startsWith("git+")) {
    const url = text.startsWith("git:") ? text.slice(4) : text.slice(4);
    const [bare, ref] = url.split("#", 2) as [string, string | undefined];
    if (!/^(https?|ssh|file|git):\/\//.test(bare))
      throw new Error(`"${text}": a git source is git:<url>[#ref] with an https, ssh, git or file URL`);
    return { kind: "git", url: bare, ref: ref || undefined };
  }
  if (text.startsWith("link:")) return { kind: "folder", path: resolve(cwd, expandHome(text.slice(5))) };
  if (text.startsWith("file:")) return { kind: "tarball", path: resolve(cwd, expandHome(text.slice(5))) };
  if (/^https?:\/\//.test(text)) {
    if (/\.git(#.*)?$/.test(text)) throw new Error(`"${text}" looks like a git repository; write git:${text}`);
    return { kind: "remote", url: text };
  }
  if (PATH_START.test(text)) {
    const path = resolve(cwd, expandHome(text));
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw new Error(`"${text}": no such file or folder (${path})`);
    }
    return isDir ? { kind: "folder", path } : { kind: "tarball", path };
  }
  const at = text.indexOf("@", 1);
  const name = at < 0 ? text : text.slice(0, at);
  const rest = at < 0 ? "" : text.slice(at + 1);
  // `name@range@catalog`, `name@catalog` or `name@range`: a part that is not a range names a catalog.
  const parts = rest === "" ? [] : rest.split("@");
  let range = "*";
  let qualifier: string | undefined;
  if (parts.length === 2) [range, qualifier] = parts as [string, string];
  else if (parts.length === 1) {
    if (isRange(parts[0]!)) range = parts[0]!;
    else qualifier = parts[0];
  } else if (parts.length > 2) throw new Error(`"${text}": expected <name>[@range][@catalog]`);
  registrySpec(`${name}@${range}`, text);
  return { kind: "catalog", name, range, qualifier };
}

function isRange(text: string): boolean {
  try {
    const type = npa(`x@${text}`).type;
    return type === "range" || type === "version";
  } catch {
    return false;
  }
}

function registrySpec(spec: string, text: string): { name: string; range: string } {
  let parsed;
  try {
    parsed = npa(spec);
  } catch (error) {
    throw new Error(`"${text}" is not a package name with an optional range (${(error as Error).message})`);
  }
  if (!parsed.name || !["range", "version", "tag"].includes(parsed.type))
    throw new Error(`"${text}" is not a package name with an optional range, such as npm:@acme/keel-notify@^1.2`);
  return { name: parsed.name, range: parsed.rawSpec === "" ? "*" : parsed.rawSpec };
}

function expandHome(path: string): string {
  return path.startsWith("~/") ? `${homedir()}${path.slice(1)}` : path;
}
