/**
 * The web UI's files, built by `npm run build` into web/dist (never at run time), read once when the server
 * starts and kept gzipped beside the original. Hashed assets are cached for good; the page itself never is.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/** What the page may load and talk to: only this server. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

interface StaticFile {
  type: string;
  body: Buffer;
  gzipped?: Buffer;
}

export class StaticFiles {
  private readonly files = new Map<string, StaticFile>();

  constructor(readonly dir = fileURLToPath(new URL("../web/dist/", import.meta.url))) {
    if (!existsSync(dir)) return;
    for (const file of walk(dir)) {
      const body = readFileSync(file);
      const type = TYPES[extname(file)] ?? "application/octet-stream";
      const gzipped = type.startsWith("text/") || type === "image/svg+xml" ? gzipSync(body) : undefined;
      this.files.set(`/${relative(dir, file).split(sep).join("/")}`, { type, body, gzipped });
    }
  }

  get built(): boolean {
    return this.files.has("/index.html");
  }

  /** Sends the file at `path` (`/` is the page); false when there is none. */
  send(path: string, acceptEncoding: string | undefined, response: ServerResponse): boolean {
    const file = this.files.get(path === "/" ? "/index.html" : path);
    if (!file) return false;
    const gzip = file.gzipped !== undefined && /\bgzip\b/.test(acceptEncoding ?? "");
    response.writeHead(200, {
      "content-type": file.type,
      "cache-control": path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
      vary: "accept-encoding",
      ...(gzip && { "content-encoding": "gzip" }),
      ...PAGE_HEADERS,
    });
    response.end(gzip ? file.gzipped : file.body);
    return true;
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
