/**
 * Where a task's session was saved. keel's own session store (session-jsonl) keeps a session at
 * `<home>/sessions/<folder tail>-<first 8 hex of the folder's SHA-256>/<created>_<id>.jsonl`; the json mode's
 * events name the session's id and folder, not its file. With any other store nothing is found, and the result
 * carries the session's id alone.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function findSessionFile(home: string, cwd: string, sessionId: string): string | undefined {
  const root = join(home, "sessions");
  const suffix = `-${createHash("sha256").update(cwd).digest("hex").slice(0, 8)}`;
  for (const folder of list(root)) {
    if (!folder.endsWith(suffix)) continue;
    const file = list(join(root, folder)).find((name) => name.endsWith(`_${sessionId}.jsonl`));
    if (file) return join(root, folder, file);
  }
  return undefined;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
