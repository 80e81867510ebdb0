/**
 * What a reader says about one file: refused whole (it is not loaded), or loaded with parts keel does not
 * honour. Every reader returns its notes instead of logging, so the caller says them once, naming the file.
 */

export interface FileNote {
  file: string;
  /** True: the file was not loaded. False: it was, and `reason` names what of it keel does not honour. */
  refused: boolean;
  reason: string;
}

/** The line a user reads: `<file>: <reason>`, ending in what happened to the file. */
export function noteText(note: FileNote): string {
  return `${note.file}: ${note.reason}${note.refused ? "; the file was skipped" : ""}`;
}

/** Collects notes for one file; `ignored` fields become one "not honoured" note. */
export class Notes {
  readonly list: FileNote[] = [];

  refuse(file: string, reason: string): undefined {
    this.list.push({ file, refused: true, reason });
    return undefined;
  }

  /** One note for `file` listing what keel reads but does not act on, with why; none when nothing is. */
  unhonoured(file: string, parts: readonly string[]): void {
    if (parts.length > 0) this.list.push({ file, refused: false, reason: `keel does not honour ${parts.join("; ")}` });
  }
}
