/**
 * Asking on the terminal what plugins ask through `ui_request` (confirm, select, input), and whether to trust
 * a project folder. The question goes to stderr (stdout keeps the conversation); the answer is the next line
 * typed, or piped. An answer that fits nothing asks again; the end of input answers nothing, so the asking
 * plugin takes its safe default.
 */
import type { ProjectTrustAnswer, ProjectTrustRequest, UiRequest, UiResponse } from "@keel/extensions-api";
import { trustPrompt } from "@keel/extensions-api/render";
import type { LineInput } from "./line-input.ts";

const write = (text: string) => void process.stderr.write(text);

/** Reads lines until `parse` accepts one; undefined at the end of input. */
async function answerWith<T>(
  input: LineInput,
  retry: string,
  parse: (line: string) => T | undefined,
): Promise<T | undefined> {
  for (;;) {
    const line = await input.answer();
    if (line === undefined) return undefined;
    const value = parse(line.trim());
    if (value !== undefined) return value;
    write(retry);
  }
}

function yesNo(line: string): boolean | undefined {
  if (/^(y|yes)$/i.test(line)) return true;
  if (/^(n|no|)$/i.test(line)) return false;
  return undefined;
}

export async function askOnTerminal(input: LineInput, request: UiRequest): Promise<UiResponse | undefined> {
  switch (request.kind) {
    case "confirm": {
      write(`${request.title}${request.message ? `\n${request.message}` : ""}\n[y/N] `);
      const confirmed = await answerWith(input, "Answer y or n: ", yesNo);
      return confirmed === undefined ? undefined : { kind: "confirm", confirmed };
    }
    case "select": {
      write(
        `${request.title}\n${request.options.map((o, i) => `  ${i + 1}. ${o}`).join("\n")}\nChoose ` +
          `1-${request.options.length}: `,
      );
      const pick = (line: string) => request.options[Number(line) - 1] ?? request.options.find((o) => o === line);
      const value = await answerWith(input, `Type a number from 1 to ${request.options.length}: `, pick);
      return value === undefined ? undefined : { kind: "select", value };
    }
    case "input": {
      write(`${request.title}${request.placeholder ? ` (${request.placeholder})` : ""}: `);
      const value = await input.answer();
      return value === undefined ? undefined : { kind: "input", value };
    }
  }
}

/** The trust question, once per folder: the answer is remembered with a hash of the files it covers. */
async function askTrust(input: LineInput, request: ProjectTrustRequest): Promise<ProjectTrustAnswer | undefined> {
  const answer = await askOnTerminal(input, { kind: "confirm", ...trustPrompt(request) });
  return answer?.kind === "confirm" ? { trusted: answer.confirmed, remember: true } : undefined;
}

/**
 * The `project_trust` handler: asked before the chat starts (this plugin activates before the project's
 * settings are merged), and only when nothing decided already — a policy plugin at an earlier stage, `--trust`
 * or a remembered answer.
 */
export function trustQuestion(
  input: LineInput,
): (request: ProjectTrustRequest) => Promise<ProjectTrustAnswer | undefined> | undefined {
  return (request) =>
    request.interactive && !request.granted && request.remembered === undefined ? askTrust(input, request) : undefined;
}

/**
 * The `ui_request` handler: only the chat has someone to ask; in -p and JSON runs the asking plugin takes its safe
 * default.
 */
export function chatQuestions(
  input: LineInput,
  chat: { active: boolean },
): (request: UiRequest) => Promise<UiResponse | undefined> | undefined {
  return (request) => (chat.active ? askOnTerminal(input, request) : undefined);
}
