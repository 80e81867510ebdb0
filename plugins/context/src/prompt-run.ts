/**
 * Running a slash command or skill written for Claude Code: its text expanded (`@keel/formats/expand`) with
 * each `!` command run through `runtime.runTool` — so the permission policy judges it as it judges the
 * model's calls — and each `@file` read the same way; its `allowed-tools` granted for the run it starts
 * (`permission_grant`) when it comes from a trusted place; its `model` used for that run, then the session's
 * again. A run already going gets the text as a follow-up, on the session's model.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { textOf, type Runtime } from "@keel/extensions-api";
import { expandPrompt } from "@keel/formats/expand";
import { modelAliases, resolveModel } from "@keel/formats/models";
import type { ToolSpec } from "@keel/formats/tools";

/** A command or skill ready to run. */
export interface PromptFile {
  /** `/git:commit`, `/skill:release`: for messages. */
  command: string;
  path: string;
  /** Its text without front matter. */
  body(): Promise<string>;
  allowedTools: readonly ToolSpec[];
  model?: string;
  /** From a trusted place: its `allowed-tools` may be granted. */
  trusted: boolean;
  /** Claude Code's rule for commands: arguments a text does not place are appended (`ARGUMENTS: …`). */
  appendArguments: boolean;
}

export interface RunDeps {
  grant(rules: string[], origin: string): void;
  aliases(): unknown;
  warn(message: string): void;
}

async function fileContents(runtime: Runtime, path: string): Promise<string | undefined> {
  const full = resolve(runtime.cwd, path);
  if (!existsSync(full) || !statSync(full).isFile()) return undefined;
  return textOf(await runtime.runTool({ name: "read", input: { path } }));
}

/** The text to send for `file` with `args`, its `!` and `@` parts filled in through the policy. */
export function expandFile(file: PromptFile, args: string, runtime: Runtime, text: string): Promise<string> {
  return expandPrompt(
    text,
    args,
    {
      shell: async (command) => textOf(await runtime.runTool({ name: "bash", input: { command } })).trimEnd(),
      file: (path) => fileContents(runtime, path),
    },
    { appendUnused: file.appendArguments, variables: { CLAUDE_PROJECT_DIR: runtime.cwd } },
  );
}

export async function runPromptFile(file: PromptFile, text: string, runtime: Runtime, deps: RunDeps): Promise<void> {
  const granted = file.allowedTools.filter((tool) => tool.keel !== undefined).map((tool) => tool.written);
  if (granted.length > 0 && file.trusted) deps.grant(granted, file.path);
  else if (granted.length > 0)
    deps.warn(
      `${file.path}: its allowed-tools are not granted (a project's skills grant nothing, being read in any ` +
        `folder); your permission policy decides each call`,
    );
  if (runtime.isRunning) return runtime.followUp(text);
  const { choice, problem } = resolveModel(file.model, {
    aliases: modelAliases(deps.aliases()),
    models: runtime.listModels(),
    provider: runtime.model?.provider,
  });
  if (problem)
    deps.warn(
      `${file.command} (${file.path}): model ${JSON.stringify(file.model)}: ${problem}; the session's model runs it`,
    );
  const before = runtime.model;
  const switched = choice && (choice.provider !== before?.provider || choice.model !== before?.id);
  if (switched) await runtime.setModel(choice.provider, choice.model);
  try {
    await runtime.prompt(text);
  } finally {
    if (switched && before) await runtime.setModel(before.provider, before.id);
  }
}
