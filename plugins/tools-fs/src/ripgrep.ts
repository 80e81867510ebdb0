/**
 * Running ripgrep through the backend. On a backend whose `spawn` runs this machine's programs on this
 * machine's files (`ops.local`), the binary that ships inside `@vscode/ripgrep` (no download); on another that
 * says where its own programs are (`ops.which`, a remote host), the `rg` on its PATH. When it is switched off,
 * there is none, or it cannot run, callers fall back to walking `ops.list`.
 */
import type { Operations, ProcessHandle } from "@keel/extensions-api";

/**
 * Flags every search passes so ripgrep sees the same files as the fallback walker: hidden files included,
 * `.git` skipped, `.gitignore` honoured even outside a git repository, and no other ignore sources
 * (`.ignore`, `.rgignore`, global excludes, `.git/info/exclude`) or user config that the walker would not see.
 */
export const COMMON_FLAGS = [
  "--no-config",
  "--hidden",
  "--no-require-git",
  "--no-ignore-dot",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--glob",
  "!.git",
];

/** The shell's codes for "not found" and "not executable". */
const CANNOT_RUN = new Set([126, 127]);

export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface RipgrepRun {
  /** 0: found something, 1: found nothing, 2: an error (possibly with partial results). */
  code: number;
  output: Buffer;
  /** `enough` said so and the process was stopped early. */
  stopped: boolean;
}

export interface RunOptions {
  /** `discard` (the default) keeps stdout clean for parsing; `only` returns stderr instead, to read an error. */
  stderr?: "discard" | "only";
  /** Called with each piece of output; returning true stops ripgrep, as `head` would. */
  enough?: (chunk: Uint8Array) => boolean;
}

export class Ripgrep {
  private binary: Promise<string | undefined> | undefined;
  /** The `rg` each backend that is not local found on its own PATH. */
  private readonly elsewhere = new WeakMap<Operations, Promise<string | undefined>>();
  private readonly broken = new WeakSet<Operations>();

  /** `enabled` is the `ripgrep` setting; false always uses the fallback. */
  constructor(private readonly enabled: boolean) {}

  /** Whether searches on `ops` should try ripgrep. */
  async usable(ops: Operations): Promise<boolean> {
    if (!this.enabled || this.broken.has(ops)) return false;
    return (await this.binaryFor(ops)) !== undefined;
  }

  /**
   * Runs ripgrep with `args` in `cwd` (a path the backend confines). Resolves undefined when the binary cannot
   * run, after which `usable` says false.
   */
  async run(
    ops: Operations,
    cwd: string,
    args: string[],
    signal: AbortSignal,
    options: RunOptions = {},
  ): Promise<RipgrepRun | undefined> {
    const binary = await this.binaryFor(ops);
    if (!binary) return undefined;
    const redirect = options.stderr === "only" ? "2>&1 >/dev/null" : "2>/dev/null";
    const command = `${[binary, ...args].map(shellQuote).join(" ")} ${redirect}`;
    const chunks: Uint8Array[] = [];
    let stopped = false;
    const handle: ProcessHandle = ops.spawn(command, {
      cwd,
      signal,
      onData(chunk) {
        chunks.push(chunk);
        if (!stopped && options.enough?.(chunk)) {
          stopped = true;
          void handle.kill(0);
        }
      },
    });
    const { code } = await handle.exited;
    if (signal.aborted) throw new Error("The search was aborted.");
    if (stopped) return { code: 0, output: Buffer.concat(chunks), stopped };
    if (code === null || CANNOT_RUN.has(code)) {
      this.broken.add(ops);
      return undefined;
    }
    return { code, output: Buffer.concat(chunks), stopped };
  }

  private binaryFor(ops: Operations): Promise<string | undefined> {
    if (ops.local === true) return this.path();
    if (!ops.which) return Promise.resolve(undefined);
    let found = this.elsewhere.get(ops);
    if (!found) this.elsewhere.set(ops, (found = ops.which("rg").catch(() => undefined)));
    return found;
  }

  private path(): Promise<string | undefined> {
    this.binary ??= import("@vscode/ripgrep").then(
      (module: { rgPath: string }) => module.rgPath,
      () => undefined,
    );
    return this.binary;
  }
}
