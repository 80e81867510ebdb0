/**
 * The kit's engine: a real runtime in temp folders, the given plugins loaded through the real host, and a
 * scripted model (itself an inline plugin using `playTurn`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { definePlugin, toolCallsOf, type EventName, type EventPayloads } from "@keel/extensions-api";
import { playTurn, type ScriptTurn } from "@keel/extensions-api/scripted";
import { KeelRuntime, readDistribution, type InlineCandidate } from "@keel/core";
import type { RecordedEvent, TestKit, TestKitOptions } from "./types.js";

/** The scripted provider the kit installs: id `scripted`, model `script`, one turn per request. */
function scriptedPlugin(script: ScriptTurn[]): InlineCandidate {
  const turns = [...script];
  let calls = 0;
  return {
    name: "keel-test-kit-model",
    version: "1.0.0",
    manifest: { activation: ["onStartup"] },
    definition: definePlugin({
      activate(api) {
        api.registerProvider({
          id: "scripted",
          models: () => [{ id: "script", provider: "scripted", contextWindow: 200_000, maxOutput: 32_000 }],
          async *stream(_request, options) {
            const turn = turns.shift() ?? {
              error: "The scripted model has no more turns: the test script is shorter than the run.",
            };
            for await (const event of playTurn(turn, options.signal, {
              provider: "scripted",
              model: "script",
              callIndex: calls,
            })) {
              if (event.type === "done") calls += toolCallsOf(event.message).length;
              yield event;
            }
          },
        });
      },
    }),
  };
}

/** Starts a kernel with the given plugins and a scripted model, and records every event. */
export async function createTestKit(options: TestKitOptions): Promise<TestKit> {
  const root = mkdtempSync(join(tmpdir(), "keel-kit-"));
  const cwd = options.cwd ?? join(root, "workspace");
  const keelHome = options.keelHome ?? join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(keelHome, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), content);
  }
  const events: RecordedEvent[] = [];
  const inline: InlineCandidate[] = [
    scriptedPlugin(options.script ?? []),
    ...(options.inline ?? []).map((p) => ({
      name: p.name,
      version: p.version ?? "0.0.0",
      definition: p.plugin,
      manifest: p.manifest,
    })),
  ];
  const runtime = await KeelRuntime.create(
    {
      cwd,
      keelHome,
      distribution: options.distribution === undefined ? undefined : readDistribution(options.distribution),
      pluginPaths: options.plugins ?? [],
      inline,
      // The kit's model keeps the plain name even when a distribution brings keel's scripted provider too.
      extraSettings: [
        { provider: "scripted", prefer: { providers: { scripted: "keel-test-kit-model" } } },
        ...(options.settings ? [options.settings] : []),
      ],
      flags: options.flags,
      trust: { granted: options.trust === true },
      // KEEL_KIT_CONFINE=1 confines every plugin with a manifest; otherwise the settings decide.
      ...(process.env.KEEL_KIT_CONFINE === "1" ? { confine: "all" as const } : {}),
    },
    (rt) => rt.bus.onAny((name, payload) => void events.push({ name, payload } as RecordedEvent)),
  );
  await runtime.startSession();

  return {
    cwd,
    keelHome,
    runtime,
    events,
    warnings: runtime.warnings,
    eventNames: () => events.map((e) => e.name),
    eventsOf: <K extends EventName>(name: K) =>
      events.filter((e) => e.name === name).map((e) => e.payload as EventPayloads[K]),
    run: (prompt) => runtime.prompt(prompt),
    async runMode(name, modeOptions = {}) {
      await runtime.host.activateFor("modes", name);
      const mode = runtime.contributions.modes.get(name);
      if (!mode)
        throw new Error(
          `No plugin registered a "${name}" mode (modes: ${
            runtime.contributions.modes
              .list()
              .map((m) => m.name)
              .join(", ") || "none"
          }).`,
        );
      return mode.item.run(runtime, modeOptions);
    },
    toolResults: () => runtime.messages.filter((m) => m.role === "toolResult"),
    plugins: () => runtime.listPlugins(),
    problems: () =>
      events.flatMap((e) => {
        if (e.name === "plugin_error") {
          const p = e.payload as EventPayloads["plugin_error"];
          return [`${p.plugin.name}: ${p.message}`];
        }
        if (e.name === "plugin_warning") {
          const p = e.payload as EventPayloads["plugin_warning"];
          return [`${p.plugin?.name ?? "keel"}: ${p.message}`];
        }
        return [];
      }),
    async dispose() {
      await runtime.shutdown();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
