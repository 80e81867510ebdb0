/**
 * Project instructions: `AGENTS.md` (or, in a folder without one, `CLAUDE.md`) from the user's folder, then
 * each folder of the project chain, widest first, so the narrowest — most specific — comes last and reads as
 * the final word. Each file and the total are capped; what a cap cuts is said both to the model (where to read
 * the rest) and to the user.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cutToBytes, formatBytes } from "@keel/extensions-api/truncate";

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface InstructionFile {
  path: string;
  /** What enters the prompt, cut notice included. */
  text: string;
}

export interface Caps {
  maxFileBytes: number;
  maxTotalBytes: number;
}

function readFirst(folder: string, problems: string[]): { path: string; text: string } | undefined {
  for (const name of INSTRUCTION_FILES) {
    const path = join(folder, name);
    try {
      return { path, text: readFileSync(path, "utf8") };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      problems.push(`could not read ${path} (${code ?? (error as Error).message}); it was left out of the prompt`);
      return undefined;
    }
  }
  return undefined;
}

/** The instruction files of `folders` (widest first), capped. `problems` gets what the user should know. */
export function readInstructions(folders: readonly string[], caps: Caps, problems: string[]): InstructionFile[] {
  const files: InstructionFile[] = [];
  let left = caps.maxTotalBytes;
  for (const folder of [...new Set(folders)]) {
    const found = readFirst(folder, problems);
    if (!found || found.text.trim() === "") continue;
    const size = Buffer.byteLength(found.text);
    if (left <= 0) {
      files.push({
        path: found.path,
        text:
          `[Left out: project instructions are capped at ${formatBytes(caps.maxTotalBytes)} in ` +
          `all; read this file if it matters.]`,
      });
      problems.push(
        `${found.path} was left out of the system prompt: the project instructions reached ` +
          `their ${formatBytes(caps.maxTotalBytes)} cap (context.maxTotalBytes)`,
      );
      continue;
    }
    const cap = Math.min(caps.maxFileBytes, left);
    if (size <= cap) {
      files.push({ path: found.path, text: found.text.trimEnd() });
      left -= size;
      continue;
    }
    const kept = cutToBytes(found.text, cap);
    left -= Buffer.byteLength(kept);
    const which =
      cap === caps.maxFileBytes
        ? `one file's ${formatBytes(cap)} cap (context.maxFileBytes)`
        : `the ${formatBytes(caps.maxTotalBytes)} cap on all of them (context.maxTotalBytes)`;
    files.push({
      path: found.path,
      text:
        `${kept.trimEnd()}\n[Cut at ${formatBytes(Buffer.byteLength(kept))} ` +
        `of ${formatBytes(size)}; read the file for the rest.]`,
    });
    problems.push(`${found.path} (${formatBytes(size)}) was cut at ${which} in the system prompt`);
  }
  return files;
}
