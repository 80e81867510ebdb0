/**
 * `.gitignore` rules as git applies them: each file's rules are relative to its folder, deeper files override
 * shallower ones, and `!pattern` re-includes. Used by the fallback walker; ripgrep reads the same files itself.
 */
import { createRequire } from "node:module";
import type { Ignore, default as IgnoreFactory } from "ignore";

// Required when the first .gitignore is read, not at startup.
let ignoreModule: typeof IgnoreFactory | undefined;
const ignore = (options: Parameters<typeof IgnoreFactory>[0]) =>
  (ignoreModule ??= createRequire(import.meta.url)("ignore") as typeof IgnoreFactory)(options);

interface Frame {
  /** Folder of the .gitignore, relative to the rules' root ("" for the root). */
  base: string;
  rules: Ignore;
}

const joinPath = (a: string, b: string) => (a === "" ? b : b === "" ? a : `${a}/${b}`);

export class GitignoreRules {
  private constructor(
    private readonly frames: readonly Frame[],
    /** Where paths given to `with` and `ignores` start, relative to the rules' root. */
    private readonly prefix: string,
  ) {}

  static empty(): GitignoreRules {
    return new GitignoreRules([], "");
  }

  /** These rules plus those of a `.gitignore` in folder `base`. */
  with(base: string, content: string): GitignoreRules {
    return new GitignoreRules(
      [...this.frames, { base: joinPath(this.prefix, base), rules: ignore({ ignorecase: false }).add(content) }],
      this.prefix,
    );
  }

  /** The same rules, asked about paths relative to `folder` (relative to the current start) from now on. */
  from(folder: string): GitignoreRules {
    return new GitignoreRules(this.frames, joinPath(this.prefix, folder));
  }

  /** Whether `path` is ignored; folders are tested as folders. */
  ignores(path: string, isFolder: boolean): boolean {
    const full = joinPath(this.prefix, path);
    let ignored = false;
    for (const frame of this.frames) {
      if (frame.base !== "" && !full.startsWith(`${frame.base}/`)) continue;
      const relative = frame.base === "" ? full : full.slice(frame.base.length + 1);
      const result = frame.rules.test(isFolder ? `${relative}/` : relative);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
