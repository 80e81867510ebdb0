/**
 * A task, one line of the tasks file: what to ask, where, with which agent and settings, within which budget.
 * The file is input from whoever wrote it: every line is checked on its own, and a bad one is reported by its
 * number without stopping the others.
 */
import { z } from "@keel/extensions-api";

/** A value a git command takes as an argument: never one it would read as an option. */
const gitArgument = z
  .string()
  .min(1)
  .refine((s) => !s.startsWith("-"), "must not start with '-'");

export const WorkspaceSchema = z.union(
  [
    z.string().min(1),
    z.object({ path: z.string().min(1) }).strict(),
    z.object({ git: gitArgument, ref: gitArgument.optional() }).strict(),
  ],
  { error: 'must be a folder ("dir" or {"path": "dir"}) or a git repository ({"git": "<url>", "ref": "<ref>"})' },
);

export const BudgetSchema = z
  .object({
    turns: z.number().int().positive(),
    tokens: z.number().int().positive(),
    seconds: z.number().positive(),
  })
  .partial()
  .strict();

export const TaskSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\s/\\]+$/, "must have no spaces and no slashes"),
    prompt: z.string().min(1),
    workspace: WorkspaceSchema,
    distribution: z.string().min(1).optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
    budget: BudgetSchema.optional(),
  })
  .strict();

export type Task = z.output<typeof TaskSchema>;
export type Budget = z.output<typeof BudgetSchema>;

export interface TaskLine {
  line: number;
  task: Task;
}

export interface TasksFile {
  tasks: TaskLine[];
  /** One text per bad line, naming the file and the line. */
  problems: string[];
}

const NEWLINE = 0x0a;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The tasks of a JSONL file's bytes; `name` is how messages name the file. Blank lines are skipped. */
export function parseTasks(bytes: Uint8Array, name: string): TasksFile {
  const tasks: TaskLine[] = [];
  const problems: string[] = [];
  const lineOfId = new Map<string, number>();
  let start = 0;
  for (let line = 1; start < bytes.length; line++) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end < 0) end = bytes.length;
    const problem = (text: string) => problems.push(`${name}:${line}: ${text}`);
    const parsed = parseLine(bytes.subarray(start, end));
    start = end + 1;
    if (parsed === undefined) continue;
    if ("problem" in parsed) {
      problem(parsed.problem);
      continue;
    }
    const first = lineOfId.get(parsed.task.id);
    if (first !== undefined) {
      problem(`the id "${parsed.task.id}" is already line ${first}'s; results are matched by id, so ids must differ`);
      continue;
    }
    lineOfId.set(parsed.task.id, line);
    tasks.push({ line, task: parsed.task });
  }
  return { tasks, problems };
}

function parseLine(bytes: Uint8Array): { task: Task } | { problem: string } | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { problem: "is not UTF-8 text" };
  }
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${(error as Error).message})` };
  }
  const result = TaskSchema.safeParse(value);
  if (result.success) return { task: result.data };
  const issues = result.error.issues.map((i) => (i.path.length ? `"${i.path.join(".")}": ${i.message}` : i.message));
  return { problem: `is not a task: ${issues.join("; ")}` };
}
