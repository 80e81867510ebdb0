/**
 * What a confined plugin gets of `api.runtime`: the `Runtime` interface and nothing of the object behind it (its
 * bus, hooks and plugin host would let a plugin fake kernel events or reach every other plugin). Methods cross as
 * calls; the values a plugin reads synchronously are sent ahead of each call into the plugin, when they changed.
 */
import type { Message, Runtime } from "@keel/extensions-api";

const VALUES = ["app", "cwd", "keelHome", "sessionId", "dataDir", "model", "thinking", "isRunning", "flags"] as const;
const METHODS = [
  "setThinking",
  "prompt",
  "steer",
  "followUp",
  "abort",
  "waitForIdle",
  "pluginEntries",
  "replaceMessages",
  "setSessionId",
  "setModel",
  "listModels",
  "allModels",
  "modelProblem",
  "ui",
  "listTools",
  "listCommands",
  "listPlugins",
  "compact",
  "complete",
  "useOps",
  "runSubagent",
  "runTool",
  "runCommand",
  "completeCommand",
  "sessionStore",
  "ask",
  "notify",
] as const;

export type RuntimeValues = Pick<Runtime, (typeof VALUES)[number]>;

/** The methods of `runtime`, bound, and its event subscriber: what crosses once per runtime. */
export function runtimeMethods(runtime: Runtime): Record<string, unknown> {
  const methods: Record<string, unknown> = Object.fromEntries(
    METHODS.filter((name) => typeof runtime[name] === "function").map((name) => [
      name,
      (runtime[name] as Function).bind(runtime),
    ]),
  );
  methods.events = { on: runtime.events.on.bind(runtime.events), onAny: runtime.events.onAny.bind(runtime.events) };
  return methods;
}

export function runtimeValues(runtime: Runtime): RuntimeValues {
  return Object.fromEntries(VALUES.map((name) => [name, runtime[name]])) as RuntimeValues;
}

/** Whether two snapshots differ (values are small: compare as JSON). */
export function valuesChanged(a: RuntimeValues | undefined, b: RuntimeValues): boolean {
  return a === undefined || JSON.stringify(a) !== JSON.stringify(b);
}

/** The plugin's side: one object whose methods call keel and whose values are the latest sent. */
export function confinedRuntime(
  methods: Record<string, unknown>,
  values: () => RuntimeValues | undefined,
  messages: () => Message[],
): Runtime {
  const runtime = { ...methods } as Record<string, unknown>;
  for (const name of VALUES) Object.defineProperty(runtime, name, { get: () => values()?.[name], enumerable: true });
  Object.defineProperty(runtime, "messages", { get: messages, enumerable: true });
  return runtime as unknown as Runtime;
}
