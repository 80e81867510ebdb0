/**
 * The marketplace for the web UI, through the marketplace's own commands (`search`, `info`, `list`, `install`,
 * `remove`) run as child processes of this same distribution: the same catalogs, checks, consent and lock as at a
 * terminal, and no second installer. `install` shows what the plugin contributes and may do, then asks on stderr
 * and reads y or n on stdin: the page shows that text in a dialog and sends the answer back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";

/** Where an install stands: waiting on the user's answer to `text`, or finished with `code`. */
export type InstallStep = { job: string; asking: true; text: string } | { asking: false; code: number; text: string };

/** The question `askYesNo` ends its prompt with (core/src/cli/ask-yes-no.ts): the child now waits on stdin. */
const ASKING = /\[y\/N\] $/;
const ABANDONED_MS = 10 * 60_000;

export class Market {
  private readonly jobs = new Map<string, Install>();

  constructor(private readonly cwd: string) {}

  /** Catalog plugins matching every word (all of them for none). */
  async search(words: string): Promise<unknown> {
    return this.json(["search", "--json", "--", ...(words.trim() ? words.trim().split(/\s+/) : [""])]);
  }

  /** An installed or catalog plugin: lock entries (capabilities, hooks), what it contributes, catalog versions. */
  info(name: string): Promise<unknown> {
    return this.json(["info", "--json", "--", checkName(name)]);
  }

  /** The plugins installed, with their state. */
  installed(): Promise<unknown> {
    return this.json(["list", "--json"]);
  }

  async remove(name: string): Promise<{ code: number; text: string }> {
    const child = this.run(["remove", "--", checkName(name)]);
    child.stdin!.end();
    const [code, text] = await Promise.all([exited(child), collect(child)]);
    return { code, text };
  }

  /** Starts installing; resolves at its first question or its end. */
  install(name: string): Promise<InstallStep> {
    const job = new Install(this.run(["install", "--", checkName(name)]));
    const id = randomBytes(9).toString("base64url");
    this.jobs.set(id, job);
    job.done.then(() => this.jobs.delete(id));
    return job.next(id);
  }

  /** Answers the question an install asks; resolves at its next question or its end. */
  answer(id: string, yes: boolean): Promise<InstallStep> {
    const job = this.jobs.get(id);
    if (!job) throw new Error("no install is waiting for that answer (it finished, or was abandoned)");
    return job.answer(id, yes);
  }

  /** Ends installs still asking: their answer is no. */
  close(): void {
    for (const job of this.jobs.values()) job.child.stdin!.end();
  }

  private async json(args: string[]): Promise<unknown> {
    const child = this.run(args);
    child.stdin!.end();
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d));
    const [code, errors] = await Promise.all([exited(child), collect(child, "stderr")]);
    if (code !== 0) throw new Error(errors.trim() || `keel ${args[0]} failed (exit code ${code})`);
    return JSON.parse(out);
  }

  private run(args: string[]): ChildProcess {
    return spawn(process.execPath, [process.argv[1]!, ...args], {
      cwd: this.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
  }
}

class Install {
  private text = "";
  private waiter: ((step: InstallStep) => void) | undefined;
  private id = "";
  readonly done: Promise<number>;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly child: ChildProcess) {
    const take = (d: Buffer) => {
      this.text += d.toString("utf8");
      if (ASKING.test(this.text)) this.settle({ job: this.id, asking: true, text: this.text.replace(ASKING, "") });
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    this.done = exited(child);
    void this.done.then((code) => this.settle({ asking: false, code, text: this.text }));
  }

  next(id: string): Promise<InstallStep> {
    this.id = id;
    clearTimeout(this.timer);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  answer(id: string, yes: boolean): Promise<InstallStep> {
    const step = this.next(id);
    this.child.stdin!.write(yes ? "y\n" : "n\n");
    return step;
  }

  private settle(step: InstallStep): void {
    this.text = "";
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(step);
    // Nobody answers a question forever: the install is declined.
    if (step.asking) this.timer = setTimeout(() => this.child.stdin!.end(), ABANDONED_MS).unref();
  }
}

/** A plugin name or catalog name as the page sends it; never an option. */
function checkName(name: string): string {
  if (!/^[A-Za-z0-9@][\w@./^~<>=*+-]*$/.test(name)) throw new Error(`"${name}" is not a plugin name`);
  return name;
}

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once("close", (code) => resolve(code ?? 1)));
}

function collect(child: ChildProcess, stream: "stdout" | "stderr" | "both" = "both"): Promise<string> {
  let text = "";
  if (stream !== "stderr") child.stdout!.on("data", (d: Buffer) => (text += d));
  if (stream !== "stdout") child.stderr!.on("data", (d: Buffer) => (text += d));
  return new Promise((resolve) => child.once("close", () => resolve(text)));
}
