/**
 * The plain-word reading of a bash line gives exactly what the grammar gives, and leaves to the grammar every
 * line that has anything for the shell to interpret.
 */
import { describe, expect, it } from "vitest";
import { plainCommand } from "../src/plain-command.ts";
import { loadShellParser, parseShell } from "../src/shell.ts";

const PLAIN = [
  "ls",
  "echo x",
  "npm test",
  "  git   status  ",
  "ls -la src/a.ts",
  "git commit -m fix",
  "node --max-old-space-size=100 a.js",
  "rm -rf /tmp/x",
  "curl http://127.0.0.1:8080/a,b user@host +x %y",
  "sudo rm -rf /",
];
const NOT_PLAIN = [
  "",
  "FOO=1 npm test",
  "export FOO",
  "unset FOO",
  "eval ls",
  "bash -c ls",
  "sh x.sh",
  "if true",
  "for x in a",
  "echo 'a b'",
  'echo "$HOME"',
  "echo $HOME",
  "echo ~",
  "ls *.ts",
  "echo a\\ b",
  "a && b",
  "a; b",
  "a | b",
  "a > out",
  "a # note",
  "echo x\nrm -rf /",
  "echo `id`",
  "echo {a,b}",
  "echo\tx",
];

describe("plainCommand", () => {
  it("reads a line of plain words as the bash grammar does", async () => {
    const parser = await loadShellParser();
    for (const line of PLAIN) expect(plainCommand(line), line).toEqual(parseShell(parser, line));
  });

  it("leaves every line with quotes, expansions, operators, keywords, assignments or scripts to the grammar", () => {
    for (const line of NOT_PLAIN) expect(plainCommand(line), JSON.stringify(line)).toBeUndefined();
  });
});
