/**
 * The pickers behind /model (every installed provider's models, what `keel models` lists), /thinking and
 * /resume (the folder's sessions), and /new. Each asks through `runtime.ask`, so the choice is whatever the
 * running surface makes of a select: a dialog in the terminal UI, a numbered question in the line chat, a
 * permission request in an editor. With an argument they skip the picker; where nobody can be asked, a
 * command without its argument says what to pass. Each reports through `runtime.notify`.
 */
import { THINKING_LEVELS, type CommandArgument, type Runtime, type ThinkingLevel } from "@keel/extensions-api";

const modelName = (m: { provider: string; id: string }) => `${m.provider}/${m.id}`;

/** The arguments of `name` that start with `prefix`, for completion. */
export async function argumentsOf(runtime: Runtime, name: string, prefix: string): Promise<CommandArgument[]> {
  let values: CommandArgument[] = [];
  if (name === "/model")
    values = (await runtime.allModels()).map((m) => ({ value: modelName(m), ...(m.name && { description: m.name }) }));
  else if (name === "/thinking") values = THINKING_LEVELS.map((value) => ({ value }));
  else if (name === "/resume")
    values = ((await runtime.sessionStore())?.list() ?? []).map((s) => ({
      value: s.id.slice(0, 8),
      ...((s.name ?? s.firstPrompt) && { description: s.name ?? s.firstPrompt }),
    }));
  return values.filter((v) => v.value.startsWith(prefix)).slice(0, 50);
}

/**
 * `options[i]` stands for `values[i]`; the picked one's value, or undefined when nothing was picked — the
 * picker dismissed, or no UI to ask (`keel -p`) — after a notice saying how to name one directly.
 */
async function pick<T>(
  runtime: Runtime,
  ask: { title: string; options: string[]; values: T[]; instead: string },
): Promise<T | undefined> {
  const answer = await runtime.ask({ kind: "select", title: ask.title, options: ask.options });
  const i = answer?.kind === "select" ? ask.options.indexOf(answer.value) : -1;
  if (i < 0) runtime.notify(`Nothing picked; ${ask.instead}.`);
  return i < 0 ? undefined : ask.values[i];
}

function idle(runtime: Runtime, name: string): boolean {
  if (!runtime.isRunning) return true;
  runtime.notify(
    `${name}: the agent is working; wait until it stops (or abort it), then run ${name} again.`,
    "warning",
  );
  return false;
}

async function model(runtime: Runtime, args: string): Promise<void> {
  const models = await runtime.allModels();
  const names = models.map(modelName);
  let chosen = args ? models.find((m, i) => names[i] === args || m.id === args) : undefined;
  if (args && !chosen)
    return runtime.notify(`/model: no installed provider serves "${args}"; /model lists them.`, "error");
  const current = runtime.model && modelName(runtime.model);
  chosen ??= await pick(runtime, {
    title: "Model",
    options: models.map(
      (m, i) =>
        `${names[i]}${m.name && m.name !== m.id ? `  ${m.name}` : ""}${names[i] === current ? "  (current)" : ""}`,
    ),
    values: models,
    instead: `name one with /model <provider>/<id> (${runtime.app.command} models lists them)`,
  });
  if (!chosen) return;
  const set = await runtime.setModel(chosen.provider, chosen.id);
  const problem = await runtime.modelProblem();
  runtime.notify(`Model: ${modelName(set)}.${problem ? ` ${problem}` : ""}`, problem ? "warning" : "info");
}

async function thinking(runtime: Runtime, args: string): Promise<void> {
  const levels = [...THINKING_LEVELS];
  let level: ThinkingLevel | undefined = levels.find((l) => l === args);
  if (args && !level)
    return runtime.notify(`/thinking: "${args}" is not a level; use one of ${levels.join(", ")}.`, "error");
  const current = runtime.thinking;
  level ??= await pick(runtime, {
    title: "Thinking",
    options: levels.map((l) => (l === current ? `${l}  (current)` : l)),
    values: levels,
    instead: `name one with /thinking <level>: ${levels.join(", ")}`,
  });
  if (!level) return;
  runtime.setThinking(level);
  runtime.notify(`Thinking: ${level}.`);
}

function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

async function resume(runtime: Runtime, args: string): Promise<void> {
  if (!idle(runtime, "/resume")) return;
  const store = await runtime.sessionStore();
  if (!store) return runtime.notify("/resume: no session store is installed, so there is nothing to resume.", "error");
  const sessions = store.list().filter((s) => s.id !== runtime.sessionId);
  if (!args && sessions.length === 0) return runtime.notify("/resume: this folder has no other session yet.");
  const ref =
    args ||
    (await pick(runtime, {
      title: "Resume a session",
      options: sessions.map((s) => `${when(s.lastUse)}  ${s.name ?? s.firstPrompt ?? "(empty)"}  ${s.id.slice(0, 8)}`),
      values: sessions.map((s) => s.id),
      instead: "name one with /resume <id> (keel sessions lists them)",
    }));
  if (!ref) return;
  await store.switchTo(ref);
  runtime.notify(`Resumed session ${runtime.sessionId.slice(0, 8)}.`);
}

async function newSession(runtime: Runtime): Promise<void> {
  if (!idle(runtime, "/new")) return;
  const store = await runtime.sessionStore();
  if (!store) return runtime.notify("/new: no session store is installed.", "error");
  await store.newSession();
  runtime.notify(`New session ${runtime.sessionId.slice(0, 8)}.`);
}

/** Every command with its description, one a line, and the keys plugins bind. */
function help(runtime: Runtime): void {
  const commands = runtime.listCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  const keys = runtime.ui().keybindings.map((k) => [k.key, `${k.description} (${k.command})`] as const);
  const keyWidth = Math.max(0, ...keys.map(([k]) => k.length));
  runtime.notify(
    [
      "Commands:",
      ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.description}`),
      ...(keys.length ? ["Keys:", ...keys.map(([k, what]) => `  ${k.padEnd(keyWidth)}  ${what}`)] : []),
    ].join("\n"),
  );
}

const RUNS: Record<string, (runtime: Runtime, args: string) => Promise<void> | void> = {
  "/help": help,
  "/model": model,
  "/thinking": thinking,
  "/resume": resume,
  "/new": newSession,
};

/** Runs command `name`; what fails is told as an error notice naming the command. */
export async function run(name: string, runtime: Runtime, args: string): Promise<void> {
  try {
    await RUNS[name]!(runtime, args);
  } catch (error) {
    runtime.notify(`${name}: ${(error as Error).message}`, "error");
  }
}
