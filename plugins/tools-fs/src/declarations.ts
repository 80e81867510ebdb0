/**
 * What the model sees of each file tool — name, description, parameters — without the implementations, so
 * the plugin's `activate()` loads only this file and each tool's module is imported on its first call.
 */
import { z, type ToolDeclaration } from "@keel/extensions-api";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "@keel/extensions-api/truncate";
import { editRenderer, writeRenderer } from "./render.ts";

export const LS_DEFAULT_LIMIT = 500;
export const FIND_DEFAULT_LIMIT = 1000;
export const GREP_DEFAULT_LIMIT = 100;
/** Matching lines longer than this are cut; minified files would otherwise flood the output. */
export const GREP_MAX_LINE_CHARS = 500;

export const readDeclaration = {
  name: "read",
  label: "Read",
  description:
    `Reads a text file, or shows an image (png, jpeg, gif, webp). Shows at most ${DEFAULT_MAX_LINES} lines or ` +
    `${DEFAULT_MAX_BYTES / 1024} KB at a time and says which offset continues; use offset and limit ` +
    `to page through large files.`,
  parameters: z.object({
    path: z.string().describe("File to read, relative to the workspace or absolute"),
    offset: z.number().int().min(1).optional().describe("First line to show, counting from 1"),
    limit: z.number().int().min(1).optional().describe("How many lines to show at most"),
  }),
  readOnly: true,
} satisfies ToolDeclaration;

export const writeDeclaration = {
  name: "write",
  label: "Write",
  description:
    "Creates a file, or replaces all of an existing file's content. Creates missing parent folders. " +
    "To change part of a file, use edit.",
  parameters: z.object({
    path: z.string().describe("File to write, relative to the workspace or absolute; missing folders are created"),
    content: z.string().describe("The complete new content of the file"),
  }),
  render: writeRenderer,
} satisfies ToolDeclaration;

export const editDeclaration = {
  name: "edit",
  label: "Edit",
  description:
    "Edits a file by exact replacement. Each oldText must match exactly once in the file (copy it " +
    "from read, whitespace included); " +
    "all edits apply together or none do. Returns a unified diff. To create a file or replace all of it, use write.",
  parameters: z.object({
    path: z.string().describe("File to edit, relative to the workspace or absolute"),
    edits: z
      .array(
        z.object({
          oldText: z
            .string()
            .describe("Text to replace, copied exactly from the file (whitespace included); must occur exactly once"),
          newText: z.string().describe("Text to put in its place"),
        }),
      )
      .min(1)
      .describe("Replacements, all matched against the file as it is now and applied together"),
  }),
  render: editRenderer,
} satisfies ToolDeclaration;

export const lsDeclaration = {
  name: "ls",
  label: "List",
  description:
    `Lists a folder's entries sorted by name, folders marked with a trailing /, hidden ` +
    `ones included. Shows at most ${LS_DEFAULT_LIMIT} entries unless limit says otherwise.`,
  parameters: z.object({
    path: z
      .string()
      .optional()
      .describe("Folder to list, relative to the workspace or absolute; the workspace when omitted"),
    limit: z.number().int().min(1).optional().describe(`Most entries to show (default ${LS_DEFAULT_LIMIT})`),
  }),
  readOnly: true,
} satisfies ToolDeclaration;

export const findDeclaration = {
  name: "find",
  label: "Find",
  description:
    "Finds files by glob pattern, sorted by path, hidden files included, skipping what .gitignore " +
    "ignores and the .git folder. " +
    `Shows at most ${FIND_DEFAULT_LIMIT} paths.`,
  parameters: z.object({
    pattern: z
      .string()
      .min(1)
      .describe(
        "Glob: without / it matches file names at any depth (*.ts); with / it matches paths under " +
          "the folder (src/**/*.test.ts)",
      ),
    path: z
      .string()
      .optional()
      .describe("Folder to search, relative to the workspace or absolute; the workspace when omitted"),
    limit: z.number().int().min(1).optional().describe(`Most paths to show (default ${FIND_DEFAULT_LIMIT})`),
  }),
  readOnly: true,
} satisfies ToolDeclaration;

export const grepDeclaration = {
  name: "grep",
  label: "Grep",
  description:
    `Searches file contents for a regular expression (or literal text) and shows matching lines as path:line: text. ` +
    `Skips files ignored by .gitignore and binary files. Shows at most ${GREP_DEFAULT_LIMIT} ` +
    `matching lines; lines over ${GREP_MAX_LINE_CHARS} characters are cut.`,
  parameters: z.object({
    pattern: z.string().min(1).describe("Regular expression to search for (or plain text with literal: true)"),
    path: z
      .string()
      .optional()
      .describe("Folder or file to search, relative to the workspace or absolute; the workspace when omitted"),
    glob: z.string().optional().describe("Only search files matching this glob, e.g. *.ts or src/**/*.test.ts"),
    ignoreCase: z.boolean().optional().describe("Match regardless of case"),
    literal: z.boolean().optional().describe("Treat pattern as plain text, not a regular expression"),
    context: z
      .number()
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe("Lines of context to show before and after each match"),
    limit: z.number().int().min(1).optional().describe(`Most matching lines to show (default ${GREP_DEFAULT_LIMIT})`),
  }),
  readOnly: true,
} satisfies ToolDeclaration;
