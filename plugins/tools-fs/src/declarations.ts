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

// Paths are relative to the workspace (the folder the system prompt names) or absolute, as in any shell, so
// a path parameter says nothing unless it has a default.
const IN_WORKSPACE = "Default: the workspace";

export const readDeclaration = {
  name: "read",
  label: "Read",
  description:
    `Read a text file or an image (png, jpeg, gif, webp), at most ${DEFAULT_MAX_LINES} lines or ` +
    `${DEFAULT_MAX_BYTES / 1024} KB per call; says the offset to continue from.`,
  parameters: z.object({
    path: z.string(),
    offset: z.number().int().min(1).optional().describe("First line, from 1"),
    limit: z.number().int().min(1).optional().describe("Most lines"),
  }),
  readOnly: true,
} satisfies ToolDeclaration;

export const writeDeclaration = {
  name: "write",
  label: "Write",
  description:
    "Create a file or replace all its content; missing folders are made. To change part of a file, use edit.",
  parameters: z.object({
    path: z.string(),
    content: z.string(),
  }),
  render: writeRenderer,
} satisfies ToolDeclaration;

export const editDeclaration = {
  name: "edit",
  label: "Edit",
  description:
    "Replace exact text in a file: each oldText must occur once (copy it from read, whitespace included); " +
    "all edits apply or none. Returns a diff.",
  parameters: z.object({
    path: z.string(),
    edits: z
      .array(
        z.object({
          oldText: z.string(),
          newText: z.string(),
        }),
      )
      .min(1)
      .describe("All matched against the file as it is now"),
  }),
  render: editRenderer,
} satisfies ToolDeclaration;

export const lsDeclaration = {
  name: "ls",
  label: "List",
  description: "List a folder, sorted, hidden entries included, folders ending in /.",
  parameters: z.object({
    path: z.string().optional().describe(IN_WORKSPACE),
    limit: z.number().int().min(1).optional().describe(`Most entries (default ${LS_DEFAULT_LIMIT})`),
  }),
  readOnly: true,
} satisfies ToolDeclaration;

export const findDeclaration = {
  name: "find",
  label: "Find",
  description: "Find files by glob, sorted, hidden ones included, skipping .git and what .gitignore ignores.",
  parameters: z.object({
    pattern: z
      .string()
      .min(1)
      .describe("Without / it matches names at any depth (*.ts); with / paths under the folder (src/**/*.test.ts)"),
    path: z.string().optional().describe(IN_WORKSPACE),
    limit: z.number().int().min(1).optional().describe(`Most paths (default ${FIND_DEFAULT_LIMIT})`),
  }),
  readOnly: true,
} satisfies ToolDeclaration;

export const grepDeclaration = {
  name: "grep",
  label: "Grep",
  description:
    "Search file contents by regular expression: path:line: text, skipping binary files and what .gitignore " +
    `ignores; lines cut at ${GREP_MAX_LINE_CHARS} characters.`,
  parameters: z.object({
    pattern: z.string().min(1).describe("Regular expression, or plain text with literal"),
    path: z.string().optional().describe(`File or folder. ${IN_WORKSPACE}`),
    glob: z.string().optional().describe("Only files matching this glob (*.ts)"),
    // The names say it: each description is sent on every request (the first request stays under 5 KB).
    ignoreCase: z.boolean().optional(),
    literal: z.boolean().optional(),
    context: z.number().int().min(0).max(20).optional().describe("Lines shown around each match"),
    limit: z.number().int().min(1).optional().describe(`Most lines (default ${GREP_DEFAULT_LIMIT})`),
  }),
  readOnly: true,
} satisfies ToolDeclaration;
