/**
 * The lines around the conversation: the header (program, model, folder, session), the working indicator,
 * the queue of messages typed while the agent works, plugins' widgets, and the footer (model, thinking level,
 * tokens, cost, context used, plugins' status entries).
 */
import { homedir } from "node:os";
import { truncateToWidth } from "@earendil-works/pi-tui";
import type { Runtime } from "@keel/extensions-api";
import { renderedLines } from "@keel/extensions-api/render";
import { renderContext } from "./render-context.ts";
import { style } from "./style.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function folder(path: string): string {
  const home = homedir();
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function modelName(runtime: Runtime): string {
  const model = runtime.model;
  return model ? `${model.provider}/${model.id}` : "no model";
}

function tokens(n: number): string {
  return n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}

export function headerLines(runtime: Runtime, width: number): string[] {
  const name = `${runtime.app.command}${runtime.app.version ? ` ${runtime.app.version}` : ""}`;
  const parts = [modelName(runtime), folder(runtime.cwd), `session ${runtime.sessionId.slice(0, 8)}`];
  return [
    truncateToWidth(`${style.bold(style.accent(name))} ${style.muted(parts.join(" · "))}`, width),
    style.muted(truncateToWidth("enter sends · alt+enter queues a follow-up · esc aborts · /help", width)),
  ];
}

export function footerLines(runtime: Runtime, width: number): string[] {
  let input = 0;
  let output = 0;
  let cost = 0;
  let context = 0;
  for (const m of runtime.messages) {
    if (m.role !== "assistant") continue;
    const u = m.usage;
    input += u.input + u.cacheRead + u.cacheWrite;
    output += u.output;
    cost += u.cost.total;
    const used = u.input + u.cacheRead + u.cacheWrite + u.output;
    if (used > 0) context = used;
  }
  const window = runtime.model?.contextWindow;
  const parts = [
    modelName(runtime),
    `thinking ${runtime.thinking ?? "default"}`,
    `↑${tokens(input)} ↓${tokens(output)}`,
    `$${cost.toFixed(cost < 1 ? 3 : 2)}`,
    window ? `context ${Math.round((context / window) * 100)}%` : "context ?",
  ];
  for (const entry of runtime.ui().statusEntries) {
    const text = renderedLines(() => {
      const t = entry.text(runtime);
      return t === undefined ? undefined : [t];
    });
    if (text) parts.push(text[0]!);
  }
  return [style.muted(truncateToWidth(parts.join(" · "), width))];
}

export function widgetLines(runtime: Runtime, width: number): string[] {
  return runtime
    .ui()
    .widgets.flatMap((w) => renderedLines(() => w.render(runtime, renderContext(width, false))) ?? [])
    .map((line) => truncateToWidth(line, width));
}

/** The working indicator while a run goes: a spinner and the seconds since it started. */
export function workingLine(startedAt: number | undefined, now: number): string[] {
  if (startedAt === undefined) return [];
  const frame = SPINNER[Math.floor(now / 100) % SPINNER.length]!;
  const seconds = Math.floor((now - startedAt) / 1000);
  return ["", `${style.accent(frame)} ${style.muted(`Working… ${seconds}s · esc aborts`)}`];
}

/** A message typed while the agent works, waiting to enter the run. */
export interface Queued {
  kind: "steer" | "follow-up";
  text: string;
}

export function queueLines(queue: readonly Queued[], width: number): string[] {
  return queue.map((q) =>
    truncateToWidth(
      style.muted(`↳ ${q.kind === "steer" ? "steer" : "follow-up"}: ${q.text.replace(/\n/g, " ⏎ ")}`),
      width,
    ),
  );
}
