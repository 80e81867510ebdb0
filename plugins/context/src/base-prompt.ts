/**
 * The default system prompt's own words: who the agent is and how it works. Every byte is sent with every
 * request, so it says only what the tools' schemas do not: a guideline line is kept only when the tools it
 * names are active. A `systemPrompt` setting replaces all of this (the session's facts and a distribution's
 * prompt additions are still added).
 */

/** Who the agent is: the distribution's command names it (`keel`, or a custom agent's own name). */
const identity = (name: string) =>
  `You are ${name}, a coding agent in the user's workspace: read, change and run code with your tools.`;

/** One guideline per line; `tools` are the tools it talks about, all of which must be active. */
const GUIDELINES: { tools: string[]; line: string }[] = [
  { tools: ["read", "edit"], line: "Read a file before you edit it; edit needs its exact text." },
  { tools: ["bash", "read", "grep", "find"], line: "Look with read, grep, find and ls rather than bash." },
  { tools: ["bash"], line: "Check changes by running the code or its tests." },
  { tools: [], line: "Keep changes small and in the project's style; ask before anything destructive." },
  { tools: [], line: "Answer concisely: say what you changed and how you checked it." },
];

/** The identity and the guidelines that apply to `toolNames`. */
export function defaultBase(toolNames: readonly string[], name = "keel"): string {
  const active = new Set(toolNames);
  const lines = GUIDELINES.filter((g) => g.tools.every((t) => active.has(t))).map((g) => `- ${g.line}`);
  return [identity(name), ...lines].join("\n");
}
