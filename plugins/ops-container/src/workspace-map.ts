/**
 * The workspace as two paths: where it is on this machine and where it is bind-mounted in the container. Tools
 * name paths as the container sees them (relative to its workspace folder, or absolute inside it); the file
 * operations run on this machine's side of the mount, so each path is mapped across, and refused by its text
 * when it lies outside the mount. The workspace's path on this machine is taken too, since the system prompt
 * names it.
 */
import { posix } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import { isWithin, pathTextProblem } from "@keel/extensions-api/paths";

export class WorkspaceMap {
  constructor(
    /** The workspace on this machine (a real path). */
    readonly host: string,
    /** Where it is mounted in the container. */
    readonly container: string,
  ) {}

  /** The path on this machine for `path` as a tool gave it; throws `PathAccessError` when outside the mount. */
  toHost(path: string): string {
    const problem = pathTextProblem(path);
    if (problem) throw new PathAccessError(path, problem);
    const inside = posix.resolve(this.container, path);
    if (isWithin(this.container, inside)) return posix.join(this.host, posix.relative(this.container, inside));
    if (isWithin(this.host, inside)) return inside;
    throw new PathAccessError(
      path,
      `it lies outside the workspace ${this.container}, the only folder of the container the file tools use; ` +
        `use a path inside it (commands in bash can reach the rest of the container)`,
    );
  }

  /** The container's path for `hostPath`, a path inside the workspace on this machine. */
  toContainer(hostPath: string): string {
    return posix.join(this.container, posix.relative(this.host, hostPath));
  }

  /** `text` (an error message) with paths of this machine's side written as the container's. */
  translate(text: string): string {
    return this.host === this.container ? text : text.replaceAll(this.host, this.container);
  }
}
