/**
 * A linked folder (`keel install ./tools/x`): the scope's plugin folder is a symlink to it, and the lock records
 * `link:<path>`. In a project's scope, a folder inside the project is linked and recorded relative to the project
 * (`link:tools/x`, a symlink `../../tools/x`), since the project's `.keel/` is committed and a teammate's clone
 * has the folder at another absolute path; anything else keeps its absolute path.
 */
import { dirname, isAbsolute, relative, sep } from "node:path";
import { pluginDir, type Scope } from "./scope.ts";

export function linkOf(scope: Scope, name: string, folder: string): { source: string; target: string } {
  const project = dirname(scope.root);
  const inside = relative(project, folder);
  if (scope.kind !== "project" || inside === "" || inside.startsWith("..") || isAbsolute(inside))
    return { source: `link:${folder}`, target: folder };
  return {
    source: `link:${inside.split(sep).join("/")}`,
    target: relative(dirname(pluginDir(scope, name)), folder),
  };
}
