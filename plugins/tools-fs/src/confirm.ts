/**
 * Confirming what ripgrep reported before the model sees it. ripgrep walks folders by path, so a folder
 * swapped for a symlink while it runs can make it list or read files outside the workspace; the backend's own
 * `list` and `readFile` check what they open by descriptor. So a listed file is kept only when a listing of
 * its folder through the backend shows it, and a file's hits only when the file, read through the backend,
 * holds those lines. An honest run loses nothing: the same files and lines are there.
 */
import { posix } from "node:path";
import type { Operations } from "@keel/extensions-api";
import { decodeText } from "./content-kind.ts";
import { type FileHits, textLines } from "./grep-hits.ts";

/** The files of `files` (paths relative to `folder`) that a backend listing of their folder shows as files. */
export async function confirmListed(ops: Operations, folder: string, files: readonly string[]): Promise<string[]> {
  const byFolder = new Map<string, Promise<Set<string>>>();
  const namesIn = (sub: string) => {
    let names = byFolder.get(sub);
    if (!names) {
      names = ops.list(sub === "." ? folder : posix.join(folder, sub)).then(
        (entries) => new Set(entries.filter((entry) => entry.kind === "file").map((entry) => entry.name)),
        () => new Set<string>(), // gone or refused: none of its files are confirmed
      );
      byFolder.set(sub, names);
    }
    return names;
  };
  const kept = await Promise.all(
    files.map(async (file) => ((await namesIn(posix.dirname(file))).has(posix.basename(file)) ? file : undefined)),
  );
  return kept.filter((file): file is string => file !== undefined);
}

const withoutBom = (text: string) => (text.startsWith("\uFEFF") ? text.slice(1) : text);

/** The files of `found` (paths relative to `folder`) whose every hit is the line it names in the file as read now. */
export async function confirmHits(ops: Operations, folder: string, found: readonly FileHits[]): Promise<FileHits[]> {
  const kept = await Promise.all(
    found.map(async (file) => {
      try {
        const lines = textLines(decodeText(await ops.readFile(posix.join(folder, file.path))));
        return file.hits.every((hit) => withoutBom(lines[hit.line - 1] ?? "") === withoutBom(hit.text))
          ? file
          : undefined;
      } catch {
        return undefined; // gone or refused since ripgrep read it
      }
    }),
  );
  return kept.filter((file): file is FileHits => file !== undefined);
}
