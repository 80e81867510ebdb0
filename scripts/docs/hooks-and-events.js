// docs/hooks-and-events.md: the hook and event catalogs (HOOKS and EVENTS are the one place each is described),
// the lifecycle sequence recorded from a real run, and the PluginAPI / Runtime reference from the doc comments
// of extensions-api/src/plugin.ts.
import { readFileSync } from "node:fs";
import { EVENTS, HOOKS } from "@keel/extensions-api";
import { interfaceDocs } from "./doc-comments.js";
import { recordLifecycle } from "./lifecycle.js";

const cell = (/** @type {string} */ text) => text.replace(/\|/g, "\\|");

/**
 * `name: Type;` of each member of one interface, keyed by name (the type column; the docs come from catalogs).
 * @param {URL} root
 * @param {string} file
 * @param {string} name
 * @returns {Record<string, string>}
 */
function memberTypes(root, file, name) {
  const docs = interfaceDocs(readFileSync(new URL(`extensions-api/src/${file}`, root), "utf8"), name);
  return Object.fromEntries(docs.members.map((m) => [m.name, m.signature.slice(m.name.length + 2)]));
}

/** @param {URL} root */
function catalogs(root) {
  const hookTypes = memberTypes(root, "hooks.ts", "HookTypes");
  const eventTypes = memberTypes(root, "events.ts", "EventPayloads");
  const ms = (/** @type {number} */ n) => (Number.isFinite(n) ? `${n / 1000} s` : "none");
  return [
    "**Hooks** are decision points: awaited, ordered by `stage` (`STAGE_SECURITY` -200, `STAGE_POLICY` -100,",
    "`STAGE_DEFAULT` 0, `STAGE_ENRICH` 50, `STAGE_OBSERVE` 100) and `before`, each with a timeout. How results",
    "combine and what a failure means depends on the kind: a *guard* that throws or times out blocks; a *transform*",
    "or *provide* handler that fails is skipped and reported; *lifecycle* handlers run in parallel and failures are",
    "reported. Tap one with `api.hooks.tap(name, options?, handler)`.",
    "",
    "| hook | kind | lifetime | timeout | type | what it is for |",
    "|---|---|---|---|---|---|",
    ...Object.entries(HOOKS).map(([name, h]) => {
      const type = cell(hookTypes[name] ?? "?");
      return `| \`${name}\` | ${h.kind} | ${h.lifetime} | ${ms(h.timeoutMs)} | \`${type}\` | ${h.doc} |`;
    }),
    "",
    "**Events** are facts for observers: fire-and-forget; a handler that throws never stops the others and becomes a",
    "`plugin_error` event naming its plugin. Subscribe with `api.events.on(name, handler)` (returns the unsubscribe).",
    "",
    "| event | payload | when |",
    "|---|---|---|",
    ...Object.entries(EVENTS).map(([name, doc]) => `| \`${name}\` | \`${cell(eventTypes[name] ?? "?")}\` | ${doc} |`),
    "",
    ...bothRule(),
  ];
}

/** The rule for a name that is both a hook and an event, with the names taken from the catalogs. */
function bothRule() {
  const shared = Object.keys(HOOKS).filter((name) => name in EVENTS);
  const list = (/** @type {string[]} */ names) => names.map((n) => `\`${n}\``).join(", ");
  const lifecycle = shared.filter((name) => HOOKS[/** @type {keyof typeof HOOKS} */ (name)].kind === "lifecycle");
  const others = shared.filter((name) => !lifecycle.includes(name));
  return [
    `**A name that is both a hook and an event.** ${list(lifecycle)} are one moment with one payload: tap the hook`,
    "for work the host must wait for (resume a session at `session_start`, send a notification " +
      "before the process exits at",
    "`agent_end`), subscribe to the event to observe (UIs, logs): it never delays the run, and a " +
      "failing handler disturbs",
    `nothing.${
      others.length > 0 ? ` ${list(others)}: the hook decides what enters the history, the event reports what did.` : ""
    }`,
  ];
}

async function lifecycle() {
  const steps = await recordLifecycle();
  const seen = new Set(steps.map((s) => `${s.kind}:${s.name}`));
  const missing = (/** @type {string} */ kind, /** @type {string[]} */ names) =>
    names
      .filter((n) => !seen.has(`${kind}:${n}`))
      .map((n) => `\`${n}\``)
      .join(", ");
  /** @type {Record<string, string>} */
  const marks = { prompt: "`runtime.prompt(...)`", dispose: "the session ends (`runtime.shutdown()`)" };
  let n = 0;
  const rows = steps.map((s) => {
    if (s.kind === "mark") return `| | **${marks[s.name]}** | |`;
    const name = `\`${s.name}\`${s.count > 1 ? ` ×${s.count}` : ""}`;
    n += 1;
    return s.kind === "hook" ? `| ${n} | ${name} | |` : `| ${n} | | ${name} |`;
  });
  return [
    "## Lifecycle of a session",
    "",
    "What fires, in order, recorded from a real run in the test kit (`scripts/docs/lifecycle.js`): one prompt; the",
    "first reply calls a tool; the next request overflows the context window, so the loop compacts and sends it again;",
    "that reply answers and the run ends; then the session ends. Repeats in a row are folded (`×n`).",
    "",
    "| # | hook (awaited) | event (observed) |",
    "|---|---|---|",
    ...rows,
    "",
    `Not in this run: hooks ${missing("hook", Object.keys(HOOKS))}; events ${missing("event", Object.keys(EVENTS))}.`,
    "`provider_request` and `retry_start` fire per HTTP attempt (the scripted model makes none).",
  ];
}

/** @param {URL} root */
function reference(root) {
  const source = readFileSync(new URL("extensions-api/src/plugin.ts", root), "utf8");
  return ["PluginAPI", "Runtime"].flatMap((name) => {
    const docs = interfaceDocs(source, name);
    const undocumented = docs.members.filter((m) => !m.doc).map((m) => m.name);
    if (undocumented.length > 0) {
      const names = undocumented.join(", ");
      throw new Error(
        `extensions-api/src/plugin.ts: ${name} members without a doc comment: ${names} (public contracts carry JSDoc)`,
      );
    }
    return [
      `### \`${name}\``,
      "",
      docs.doc ?? "",
      "",
      "| member | what it is |",
      "|---|---|",
      ...docs.members.map((m) => `| \`${cell(m.signature)}\` | ${cell(m.doc ?? "")} |`),
      "",
    ];
  });
}

/**
 * The whole file.
 * @param {URL} root
 */
export async function hooksAndEvents(root) {
  return [
    "# Hooks and events",
    "",
    "Generated by `npm run docs` from `extensions-api/src/hooks.ts`, `events.ts` and `plugin.ts` and from a",
    "recorded run; do not edit by hand.",
    "",
    ...catalogs(root),
    "",
    ...(await lifecycle()),
    "",
    "## Reference: what a plugin is given",
    "",
    "`activate(api)` receives a `PluginAPI`; modes, commands and hooks from `session_start` on reach the running",
    "agent as `Runtime` (`api.runtime`). From the doc comments of `extensions-api/src/plugin.ts`.",
    "",
    ...reference(root),
  ].join("\n");
}
