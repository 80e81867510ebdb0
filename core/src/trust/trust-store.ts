/**
 * The user's trust decisions, `$KEEL_HOME/trust.json`: a folder's real path → trusted or not, and the hash of
 * the configuration the decision was made for. A decision holds for that exact folder and those exact bytes:
 * never for a subfolder or a parent, and a changed file asks again.
 *
 * Two keel processes may decide at once (two terminals, `keel trust` beside a running chat): a change is made
 * under a lock on the file (proper-lockfile, as session-jsonl's: an atomic `mkdir` of `trust.json.lock`), on the
 * file as read under that lock, and written to a new file that is synced and renamed over the old one, so
 * neither a decision of the other process nor a torn file is ever left behind.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";
import type * as ProperLockfile from "proper-lockfile";
import type { ProjectConfig } from "./project-config.js";

const DecisionSchema = lazySchema(() =>
  z.object({
    trusted: z.boolean(),
    hash: z.string(),
    decidedAt: z.string().optional(),
    /** The events the project hooked when it was trusted: a run that lost them says so. */
    hooks: z.array(z.string()).optional(),
  }),
);
const StoreSchema = lazySchema(() => z.object({ folders: z.record(z.string(), DecisionSchema) }));
type StoreData = z.output<typeof StoreSchema>;

// Required on the first change, not at startup: proper-lockfile pulls in graceful-fs, which patches fs on load.
let lockfileModule: typeof ProperLockfile | undefined;
const lockfile = () => (lockfileModule ??= createRequire(import.meta.url)("proper-lockfile") as typeof ProperLockfile);

/** How long a change waits for another process's (20 tries, 25 ms apart growing to 250 ms: about 4 s). */
const RETRIES = { retries: 20, minTimeout: 25, maxTimeout: 250 };

export class TrustStore {
  readonly file: string;

  /** `command` names the distribution in messages (`keel trust`, or a custom agent's). */
  constructor(
    keelHome: string,
    private readonly command = "keel",
  ) {
    this.file = join(keelHome, "trust.json");
  }

  /** The decision remembered for exactly this folder and content; undefined when none or the files changed. */
  remembered(config: ProjectConfig, warnings: string[]): boolean | undefined {
    const entry = this.load(warnings).data.folders[config.dir];
    return entry && entry.hash === config.hash ? entry.trusted : undefined;
  }

  /**
   * The events the folder's hooks guarded when the user trusted it, now that its files changed (so they will not
   * run until it is trusted again); empty when it was not trusted, or is as it was.
   */
  lapsedHooks(config: ProjectConfig, warnings: string[]): string[] {
    const entry = this.load(warnings).data.folders[config.dir];
    return entry?.trusted && entry.hash !== config.hash ? (entry.hooks ?? []) : [];
  }

  /** Remembers a decision; false (with a warning saying why) when it could not be saved. */
  remember(config: ProjectConfig, trusted: boolean, warnings: string[]): Promise<boolean> {
    const decidedAt = new Date().toISOString();
    return this.update(
      warnings,
      (data) => void (data.folders[config.dir] = { trusted, hash: config.hash, decidedAt, hooks: config.hooks }),
    );
  }

  /** Removes a folder's decision; false when there was none (or it could not be saved). */
  async forget(dir: string, warnings: string[]): Promise<boolean> {
    let had = false;
    const saved = await this.update(warnings, (data) => {
      had = Object.hasOwn(data.folders, dir);
      delete data.folders[dir];
    });
    return saved && had;
  }

  private async update(warnings: string[], change: (data: StoreData) => void): Promise<boolean> {
    let release: (() => Promise<void>) | undefined;
    try {
      // realpath: false: the file need not exist yet; the lock is the folder `trust.json.lock` beside it.
      release = await lockfile().lock(this.file, { realpath: false, stale: 10_000, retries: RETRIES });
    } catch (error) {
      warnings.push(
        `${this.file} is being changed by another keel (${(error as Error).message}); the decision ` +
          `was not saved. Try again.`,
      );
      return false;
    }
    try {
      const { data, damaged } = this.load(warnings);
      if (damaged) {
        const aside = `${this.file}.damaged-${Date.now()}`;
        renameSync(this.file, aside);
        warnings.push(`${this.file} was damaged; it was moved to ${aside} and a new one started.`);
      }
      change(data);
      this.write(`${JSON.stringify(data, null, 2)}\n`);
      return true;
    } finally {
      await release();
    }
  }

  /** Writes a new file beside the old one, syncs it and renames it over: readers see the old or the new. */
  private write(text: string): void {
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fd = openSync(temp, "wx", 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
  }

  private load(warnings: string[]): { data: StoreData; damaged: boolean } {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { data: { folders: {} }, damaged: false };
      warnings.push(`${this.file} could not be read (${(error as Error).message}); no folder is trusted until it can.`);
      return { data: { folders: {} }, damaged: false };
    }
    let parsed: ReturnType<typeof StoreSchema.safeParse> | undefined;
    try {
      parsed = StoreSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) return { data: parsed.data, damaged: false };
    warnings.push(
      `${this.file} is damaged; no folder is trusted until you fix it or run "${this.command} trust" again.`,
    );
    return { data: { folders: {} }, damaged: true };
  }
}
