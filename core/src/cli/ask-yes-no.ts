/**
 * A yes/no question for CLI commands (`keel install` asks before it installs): the question on stderr, one line
 * read from stdin. The end of stdin (a script, CI) is a no, so nothing is installed without an answer. One
 * reader serves every question of the process, so piped answers (`y\ny\n`) reach the questions in order.
 */
import { createInterface, type Interface } from "node:readline";

let reader: Interface | undefined;
const lines: string[] = [];
const waiting: ((line: string | undefined) => void)[] = [];
let ended = false;

function nextLine(): Promise<string | undefined> {
  if (lines.length > 0) return Promise.resolve(lines.shift());
  if (ended) return Promise.resolve(undefined);
  if (!reader) {
    reader = createInterface({ input: process.stdin, terminal: false });
    reader.on("line", (line) => (waiting.length > 0 ? waiting.shift()!(line) : lines.push(line)));
    reader.on("close", () => {
      ended = true;
      for (const resolve of waiting.splice(0)) resolve(undefined);
    });
  }
  reader.resume();
  return new Promise((resolve) =>
    waiting.push((line) => {
      if (waiting.length === 0) reader?.pause();
      resolve(line);
    }),
  );
}

export async function askYesNo(question: string, err: (text: string) => void): Promise<boolean> {
  err(`${question} [y/N] `);
  const line = await nextLine();
  if (line === undefined) err("\n");
  return line !== undefined && /^\s*y(es)?\s*$/i.test(line);
}
