/**
 * Project instructions: each folder's `AGENTS.md`, `CLAUDE.md` (also `.claude/CLAUDE.md` and
 * `CLAUDE.local.md`) and `GEMINI.md` — all of them, since real repositories keep different text in each — from
 * the user's folder, then each folder of the project chain, widest first, so the narrowest — most specific —
 * comes last and reads as the final word. Claude Code's and Gemini CLI's files bring in the files they `@import`
 * (after themselves); a file already read (a symlink, an import of AGENTS.md, the same text) is not read twice.
 * Each file and the total are capped; what a cap cuts is said both to the model (where to read the rest) and to
 * the user.
 */
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { cutToBytes, formatBytes } from "@keel/extensions-api/truncate";

/** Per folder, in the order they are read; `imports`: its `@path` imports are read too. */
export const INSTRUCTION_FILES = [
  { name: "AGENTS.md", imports: false },
  { name: "CLAUDE.md", imports: true },
  { name: ".claude/CLAUDE.md", imports: true },
  { name: "CLAUDE.local.md", imports: true },
  { name: "GEMINI.md", imports: true },
] as const;

export interface InstructionFile {
  path: string;
  /** What enters the prompt, cut notice included. */
  text: string;
  /** The file whose `@` import brought it in. */
  importedBy?: string;
}

export interface Caps {
  maxFileBytes: number;
  maxTotalBytes: number;
}

type Found = { path: string; text: string; importedBy?: string };

/** Reads `files` (plugins' context files), then the instruction files of `folders`, each real file and text once. */
async function found(folders: readonly string[], problems: string[], files: readonly string[]): Promise<Found[]> {
  const seen = new Set<string>();
  const texts = new Set<string>();
  const read = (path: string): string | undefined => {
    try {
      const real = realpathSync(path);
      if (seen.has(real)) return undefined;
      const text = readFileSync(real, "utf8");
      seen.add(real);
      return text;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EISDIR")
        problems.push(`could not read ${path} (${code ?? (error as Error).message}); it was left out of the prompt`);
      return undefined;
    }
  };
  const out: Found[] = [];
  const paths = [
    ...files.map((path) => ({ path, imports: true })),
    ...[...new Set(folders)].flatMap((folder) => INSTRUCTION_FILES.map((f) => ({ ...f, path: join(folder, f.name) }))),
  ];
  for (const { path, imports } of paths) {
    const text = read(path);
    if (text === undefined || text.trim() === "" || texts.has(text.trim())) continue;
    texts.add(text.trim());
    // Loaded only for a file that may import (most projects have an AGENTS.md alone).
    const parts = imports
      ? (await import("@keel/formats/instructions")).withImports(path, text, read)
      : [{ path, text }];
    out.push(...parts.filter((p, i) => i === 0 || !texts.has(p.text.trim())));
    for (const part of parts) texts.add(part.text.trim());
  }
  return out;
}

/**
 * Plugins' context files, then the instruction files of `folders` (widest first), capped. `problems` gets what the
 * user should know.
 */
export async function readInstructions(
  folders: readonly string[],
  caps: Caps,
  problems: string[],
  pluginFiles: readonly string[] = [],
): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  let left = caps.maxTotalBytes;
  for (const file of await found(folders, problems, pluginFiles)) {
    const size = Buffer.byteLength(file.text);
    const base = { path: file.path, ...(file.importedBy && { importedBy: file.importedBy }) };
    if (left <= 0) {
      files.push({
        ...base,
        text:
          `[Left out: project instructions are capped at ${formatBytes(caps.maxTotalBytes)} in ` +
          `all; read this file if it matters.]`,
      });
      problems.push(
        `${file.path} was left out of the system prompt: the project instructions reached ` +
          `their ${formatBytes(caps.maxTotalBytes)} cap (context.maxTotalBytes)`,
      );
      continue;
    }
    const cap = Math.min(caps.maxFileBytes, left);
    if (size <= cap) {
      files.push({ ...base, text: file.text.trimEnd() });
      left -= size;
      continue;
    }
    const kept = cutToBytes(file.text, cap);
    left -= Buffer.byteLength(kept);
    const which =
      cap === caps.maxFileBytes
        ? `one file's ${formatBytes(cap)} cap (context.maxFileBytes)`
        : `the ${formatBytes(caps.maxTotalBytes)} cap on all of them (context.maxTotalBytes)`;
    files.push({
      ...base,
      text:
        `${kept.trimEnd()}\n[Cut at ${formatBytes(Buffer.byteLength(kept))} ` +
        `of ${formatBytes(size)}; read the file for the rest.]`,
    });
    problems.push(`${file.path} (${formatBytes(size)}) was cut at ${which} in the system prompt`);
  }
  return files;
}
