/**
 * The bubblewrap command line of the sandbox. Mounts are applied in order, so each later one wins over what it
 * covers: the whole host read-only, fresh /dev, /proc and /tmp, an empty home with the chosen dotfiles and the
 * readable folders read-only, then the writable folders, then `.git` read-only again inside the workspace.
 *
 * `--unshare-user` and `--cap-drop ALL` are both always there: as root without them, `mount -o remount,rw /`
 * inside the sandbox succeeds and the host becomes writable. `--unshare-pid` with a fresh /proc hides host
 * processes (and their environments); `--new-session` keeps a command from typing into the user's terminal.
 */

export interface SandboxLayout {
  /** The workspace, by its real path. */
  workspace: string;
  /** The home folder, replaced by an empty tmpfs; undefined when it does not exist. */
  home: string | undefined;
  /** Existing folders commands may write besides the workspace (real paths). */
  writable: readonly string[];
  /** Existing paths under `home` shown read-only. */
  dotfiles: readonly string[];
  /**
   * Existing folders bound read-only at their path (ops-local's `read` allowed roots, which may lie in /tmp or home).
   */
  readable: readonly string[];
  /** Existing read-only paths bound over writable ones (the workspace's `.git`). */
  readOnly: readonly string[];
  network: boolean;
}

/** The options that hold whatever the layout says; never without them. */
export const ISOLATION = [
  "--unshare-user",
  "--cap-drop",
  "ALL",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--new-session",
  "--die-with-parent",
] as const;

export function bwrapArgs(layout: SandboxLayout): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  if (layout.home) args.push("--tmpfs", layout.home);
  for (const path of [...layout.dotfiles, ...layout.readable]) args.push("--ro-bind", path, path);
  for (const dir of [layout.workspace, ...layout.writable]) args.push("--bind", dir, dir);
  for (const path of layout.readOnly) args.push("--ro-bind", path, path);
  args.push(...ISOLATION);
  if (!layout.network) args.push("--unshare-net");
  return args;
}

/** Quotes a word for bash: single quotes, with each single quote closed, escaped and reopened. */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command line handed to the wrapped backend's shell: it `exec`s bubblewrap, so the process it started (and
 * whose group and tree it kills) is the sandbox itself, and bash inside runs the command.
 */
export function sandboxedCommand(bwrap: string, args: readonly string[], command: string): string {
  return `exec ${[bwrap, ...args, "--", "bash", "-c", command].map(shellWord).join(" ")}`;
}
