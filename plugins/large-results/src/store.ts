/**
 * The session's results folder: large tool results saved whole, each under a short handle the model can type.
 * The folder belongs to the host's session data, not to the workspace, so it is read and written with node:fs
 * rather than through `ctx.ops` (a sandboxed or remote backend has no say over it).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const HANDLE = /^res_[0-9a-f]{8}$/;

export class ResultStore {
  /** The folder last seen holding a result. */
  private known: string | undefined;
  /** Whether the folder may hold results this process did not save (see `historyReplaced`). */
  private earlier = false;

  /** `folder` is asked each time: the session (and so its data folder) is known only once it has started. */
  constructor(private readonly folder: () => string) {}

  /**
   * Saves `text` and returns its handle, which is derived from the content: the same text gets the same
   * handle (saved once), and a scripted run can know a handle in advance.
   */
  async save(text: string): Promise<string> {
    const handle = handleFor(text);
    const dir = this.folder();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${handle}.txt`), text, "utf8");
    this.known = dir;
    return handle;
  }

  /**
   * The session's history was replaced (a resume, a jump, a fork): its folder may hold results saved by an
   * earlier process. Until then the session is the new one this process started, whose id is new, so its folder
   * holds only what `save` put there.
   */
  historyReplaced(): void {
    this.earlier = true;
  }

  /**
   * Whether the session's folder holds any result: once it does, the model needs `read_result`. Asked before
   * each request, so a yes is remembered per folder and a no costs one `existsSync`; before anything was saved
   * or the history replaced, a no costs nothing: `folder()` reads `runtime.dataDir`, which makes the session's
   * data folder (a `mkdir` on every start, and an empty folder left behind by every run that stores nothing).
   */
  holdsAny(): boolean {
    if (!this.earlier && this.known === undefined) return false;
    const dir = this.folder();
    if (this.known === dir) return true;
    if (!existsSync(dir) || readdirSync(dir).length === 0) return false;
    this.known = dir;
    return true;
  }

  /** The text saved under `handle`; an error that says what a handle looks like when there is none. */
  async load(handle: string): Promise<string> {
    const unknown = () =>
      new Error(
        `There is no stored result ${JSON.stringify(handle)} in this session. Handles look like ` +
          `"res_1a2b3c4d" and are named in the preview of a large result; copy it from there.`,
      );
    if (!HANDLE.test(handle)) throw unknown();
    try {
      return await readFile(join(this.folder(), `${handle}.txt`), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw unknown();
      throw error;
    }
  }
}

/** The handle `save` gives `text`. */
export function handleFor(text: string): string {
  return `res_${createHash("sha256").update(text).digest("hex").slice(0, 8)}`;
}

/** Lines of `text` as the truncation helpers count them: a final newline ends the last line, adds none. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
