/** The client's link to `keel --mode rpc`: one message per LF-terminated line, on keel's stdin and stdout. */
import type { Readable, Writable } from "node:stream";
import { LineSplitter } from "./lines.ts";
import type { LinkFactory } from "./socket-link.ts";

export function stdioLink(input: Writable, output: Readable): LinkFactory {
  return (handlers) => {
    const lines = new LineSplitter();
    output.on("data", (chunk: Buffer) => {
      for (const line of lines.push(chunk)) handlers.receive(line);
    });
    output.on("end", () => {
      const last = lines.end();
      if (last) handlers.receive(last);
      handlers.closed(new Error("keel closed its output"));
    });
    return { send: (text) => input.write(`${text}\n`), end: () => input.end() };
  };
}
