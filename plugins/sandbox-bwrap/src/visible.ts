/**
 * Which host folders a sandboxed command sees at their own path. The host's files are bound read-only at `/`,
 * but /tmp and the home folder are replaced by private ones and /dev and /proc are the sandbox's own; only the
 * binds of the layout (workspace, writable folders, dotfiles) show host files there. A command whose working
 * folder is not visible must be refused: bubblewrap would silently start it in the private home instead.
 */
import { isWithin } from "@keel/extensions-api/paths";
import type { SandboxLayout } from "./bwrap-args.ts";

/** The folders the sandbox replaces by its own (private /tmp and home, its /dev and /proc). */
function hidden(layout: SandboxLayout): string[] {
  return ["/tmp", "/dev", "/proc", ...(layout.home ? [layout.home] : [])];
}

/** Whether `dir` (a real path) is the host's folder inside the sandbox too. */
export function visibleInSandbox(layout: SandboxLayout, dir: string): boolean {
  const bound = [layout.workspace, ...layout.writable, ...layout.dotfiles];
  if (bound.some((b) => isWithin(b, dir))) return true;
  return !hidden(layout).some((h) => isWithin(h, dir));
}
