/**
 * The user's trust decisions, `$KEEL_HOME/trust.json`: a folder's real path → trusted or not, and the hash of
 * the configuration the decision was made for. A decision holds for that exact folder and those exact bytes:
 * never for a subfolder or a parent, and a changed file asks again.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "@keel/extensions-api";
import type { ProjectConfig } from "./project-config.js";

const DecisionSchema = z.object({ trusted: z.boolean(), hash: z.string(), decidedAt: z.string().optional() });
const StoreSchema = z.object({ folders: z.record(z.string(), DecisionSchema) });
type StoreData = z.output<typeof StoreSchema>;

export class TrustStore {
  readonly file: string;

  constructor(keelHome: string) {
    this.file = join(keelHome, "trust.json");
  }

  /** The decision remembered for exactly this folder and content; undefined when none or the files changed. */
  remembered(config: ProjectConfig, warnings: string[]): boolean | undefined {
    const entry = this.load(warnings).data.folders[config.dir];
    return entry && entry.hash === config.hash ? entry.trusted : undefined;
  }

  remember(config: ProjectConfig, trusted: boolean, warnings: string[]): void {
    this.update(
      warnings,
      (data) => void (data.folders[config.dir] = { trusted, hash: config.hash, decidedAt: new Date().toISOString() }),
    );
  }

  /** Removes a folder's decision; false when there was none. */
  forget(dir: string, warnings: string[]): boolean {
    let had = false;
    this.update(warnings, (data) => {
      had = Object.hasOwn(data.folders, dir);
      delete data.folders[dir];
    });
    return had;
  }

  private update(warnings: string[], change: (data: StoreData) => void): void {
    const { data, damaged } = this.load(warnings);
    if (damaged) {
      const aside = `${this.file}.damaged-${Date.now()}`;
      renameSync(this.file, aside);
      warnings.push(`${this.file} was damaged; it was moved to ${aside} and a new one started.`);
    }
    change(data);
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
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
    warnings.push(`${this.file} is damaged; no folder is trusted until you fix it or run "keel trust" again.`);
    return { data: { folders: {} }, damaged: true };
  }
}
