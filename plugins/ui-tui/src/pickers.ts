/**
 * The TUI's pickers: /model (every installed provider's models, what `keel models` lists), /thinking,
 * /resume (the folder's sessions), /new and /tree (the current session's entries). Each asks through
 * `runtime.ask`, so the choice is a dialog here and would be a numbered question in the line chat; each
 * reports through `runtime.notify`. With an argument they skip the picker.
 */
import type { AutocompleteItem } from "@earendil-works/pi-tui";
import { THINKING_LEVELS, type Runtime, type ThinkingLevel } from "@keel/extensions-api";

export const PICKER_COMMANDS = [
  { name: "/model", description: "Pick the model (or /model <provider>/<id>)" },
  { name: "/thinking", description: "Pick how hard the model thinks (or /thinking <level>)" },
  { name: "/resume", description: "Pick a session of this folder to continue (or /resume <id>)" },
  { name: "/new", description: "Start a new session" },
  { name: "/tree", description: "Pick an entry of this session to continue from (/tree <id> jumps)" },
];

/** What Tab offers after a picker command's name: model names, levels, session ids. */
export async function pickerArguments(runtime: Runtime, name: string, prefix: string): Promise<AutocompleteItem[]> {
  let values: { value: string; description?: string }[] = [];
  if (name === "/model")
    values = (await runtime.allModels()).map((m) => ({ value: `${m.provider}/${m.id}`, description: m.name }));
  else if (name === "/thinking") values = THINKING_LEVELS.map((value) => ({ value }));
  else if (name === "/resume")
    values = ((await runtime.sessionStore())?.list() ?? []).map((s) => ({
      value: s.id.slice(0, 8),
      description: s.name ?? s.firstPrompt,
    }));
  return values
    .filter((v) => v.value.startsWith(prefix))
    .slice(0, 50)
    .map((v) => ({ value: v.value, label: v.value, ...(v.description ? { description: v.description } : {}) }));
}

/** `options[i]` stands for `values[i]`; the picked one's value, or undefined when dismissed. */
async function pick<T>(runtime: Runtime, title: string, options: string[], values: T[]): Promise<T | undefined> {
  if (options.length === 0) return undefined;
  const answer = await runtime.ask({ kind: "select", title, options });
  if (answer?.kind !== "select") return undefined;
  const i = options.indexOf(answer.value);
  return i < 0 ? undefined : values[i];
}

function idle(runtime: Runtime, name: string): boolean {
  if (!runtime.isRunning) return true;
  runtime.notify(
    `${name}: the agent is working; wait until it stops (or press Esc), then run ${name} again.`,
    "warning",
  );
  return false;
}

async function model(runtime: Runtime, args: string): Promise<void> {
  const models = await runtime.allModels();
  const names = models.map((m) => `${m.provider}/${m.id}`);
  let chosen = args ? models.find((m, i) => names[i] === args || m.id === args) : undefined;
  if (args && !chosen) {
    runtime.notify(`/model: no installed provider serves "${args}"; /model without an argument lists them.`, "error");
    return;
  }
  const current = runtime.model && `${runtime.model.provider}/${runtime.model.id}`;
  chosen ??= await pick(
    runtime,
    "Model",
    models.map(
      (m, i) =>
        `${names[i]}${m.name && m.name !== m.id ? `  ${m.name}` : ""}${names[i] === current ? "  (current)" : ""}`,
    ),
    models,
  );
  if (!chosen) return;
  const set = await runtime.setModel(chosen.provider, chosen.id);
  const problem = await runtime.modelProblem();
  runtime.notify(`Model: ${set.provider}/${set.id}.${problem ? ` ${problem}` : ""}`, problem ? "warning" : "info");
}

async function thinking(runtime: Runtime, args: string): Promise<void> {
  const levels = [...THINKING_LEVELS];
  let level: ThinkingLevel | undefined = levels.find((l) => l === args);
  if (args && !level) {
    runtime.notify(`/thinking: "${args}" is not a level; use one of ${levels.join(", ")}.`, "error");
    return;
  }
  const current = runtime.thinking;
  level ??= await pick(
    runtime,
    "Thinking",
    levels.map((l) => (l === current ? `${l}  (current)` : l)),
    levels,
  );
  if (!level) return;
  runtime.setThinking(level);
  runtime.notify(`Thinking: ${level}.`);
}

function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

async function resume(runtime: Runtime, args: string): Promise<void> {
  const store = await runtime.sessionStore();
  if (!store) return runtime.notify("/resume: no session store is installed, so there is nothing to resume.", "error");
  const sessions = store.list().filter((s) => s.id !== runtime.sessionId);
  const ref =
    args ||
    (await pick(
      runtime,
      "Resume a session",
      sessions.map((s) => `${when(s.lastUse)}  ${s.name ?? s.firstPrompt ?? "(empty)"}  ${s.id.slice(0, 8)}`),
      sessions.map((s) => s.id),
    ));
  if (!sessions.length && !args) return runtime.notify("/resume: this folder has no other session yet.");
  if (!ref) return;
  await store.switchTo(ref);
  runtime.notify(`Resumed session ${runtime.sessionId.slice(0, 8)}.`);
}

async function newSession(runtime: Runtime): Promise<void> {
  const store = await runtime.sessionStore();
  if (!store) return runtime.notify("/new: no session store is installed.", "error");
  await store.newSession();
  runtime.notify(`New session ${runtime.sessionId.slice(0, 8)}.`);
}

async function tree(runtime: Runtime, args: string): Promise<boolean> {
  // With arguments it is the store's own /tree command (jump by id or label, --all, --summarize).
  if (args) return false;
  const store = await runtime.sessionStore();
  if (!store) return false;
  const { entries, leafId } = store.tree();
  if (entries.length === 0) {
    runtime.notify("/tree: nothing is recorded yet.");
    return true;
  }
  const shown = entries.filter((e) => e.kind === "user" || e.label);
  const target = await pick(
    runtime,
    "Continue from",
    shown.map(
      (e) => `${e.preview}${e.label ? `  [${e.label}]` : ""}${e.id === leafId ? "  (here)" : ""}  ${e.id.slice(0, 8)}`,
    ),
    shown.map((e) => e.id),
  );
  if (!target) return true;
  await store.jump(target);
  runtime.notify(`Moved to ${target.slice(0, 8)}.`);
  return true;
}

/** Runs a picker command; false when `line` is not one of them (or /tree with arguments). */
export async function runPicker(runtime: Runtime, line: string): Promise<boolean> {
  const [name = "", ...rest] = line.trim().split(/\s+/);
  const args = rest.join(" ");
  if (!PICKER_COMMANDS.some((c) => c.name === name)) return false;
  if (name !== "/model" && name !== "/thinking" && !idle(runtime, name)) return true;
  try {
    if (name === "/model") await model(runtime, args);
    else if (name === "/thinking") await thinking(runtime, args);
    else if (name === "/resume") await resume(runtime, args);
    else if (name === "/new") await newSession(runtime);
    else return await tree(runtime, args);
  } catch (error) {
    runtime.notify(`${name}: ${(error as Error).message}`, "error");
  }
  return true;
}
