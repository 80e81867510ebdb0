/**
 * What the plugin does with a session across its life: start or resume it at `session_start`, record events,
 * and carry out the tree commands (jump, fork, label, name, export). Holds the one live recorder.
 */
import { randomUUID } from "@keel/extensions-api/random-id";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { EventPayloads, Message, PluginEntry, Runtime } from "@keel/extensions-api";
import { summariseBranch } from "./branch-summary.ts";
import { branchTo, buildContext } from "./context.ts";
import { toHtml } from "./export-html.ts";
import { toMarkdown } from "./export-markdown.ts";
import { NAME_ENTRY, type Entry } from "./format.ts";
import { loadSession, type LoadedSession } from "./load.ts";
import { freshMeta, latestSession, listSessions, type SessionSummary } from "./meta.ts";
import { resolveSessionArg, sessionDir } from "./paths.ts";
import { SessionRecorder, type RecorderOptions } from "./recorder.ts";
import { renderTree, resolveEntry } from "./tree.ts";

export interface ControllerOptions extends Omit<RecorderOptions, "cwd"> {
  keelHome: string;
  cwd: string;
}

/** How `session_start` was asked to begin, from the flags. */
export type StartRequest = { kind: "none" } | { kind: "new" } | { kind: "continue" } | { kind: "session"; arg: string };

/**
 * Reads the flags. `--no-session` may arrive as `no-session`, `noSession`, or (commander's negation of
 * `--session`) as `session: false`.
 */
export function startRequest(flags: Readonly<Record<string, unknown>>): StartRequest {
  if (flags["no-session"] === true || flags.noSession === true || flags.session === false) return { kind: "none" };
  if (typeof flags.session === "string" && flags.session.length > 0) return { kind: "session", arg: flags.session };
  if (flags.continue === true) return { kind: "continue" };
  return { kind: "new" };
}

export class SessionController {
  recorder: SessionRecorder | undefined;

  constructor(private readonly options: ControllerOptions) {}

  get dir(): string {
    return sessionDir(this.options.keelHome, this.options.cwd);
  }

  /** Begins the session `request` asks for; a resumed one replaces the runtime's history and id. */
  async start(runtime: Runtime, request: StartRequest): Promise<void> {
    this.close();
    if (request.kind === "none") return;
    let path: string | undefined;
    if (request.kind === "session") {
      try {
        path = resolveSessionArg(this.options.keelHome, this.options.cwd, request.arg);
      } catch (error) {
        runtime.notify(`${(error as Error).message}. Starting a new session instead.`, "error");
      }
    } else if (request.kind === "continue") {
      path = latestSession(this.dir);
      if (!path) runtime.notify("No earlier session in this folder to continue; starting a new one.", "info");
    }
    if (!path) {
      this.recorder = SessionRecorder.start(this.dir, runtime.sessionId, this.options);
      return;
    }
    try {
      await this.resume(runtime, path);
    } catch (error) {
      runtime.notify(`Cannot resume ${path}: ${(error as Error).message}. Starting a new session instead.`, "error");
      this.recorder = SessionRecorder.start(this.dir, runtime.sessionId, this.options);
    }
  }

  /** Leaves the current session for a new, empty one with a fresh id. */
  newSession(runtime: Runtime): void {
    this.live();
    this.close();
    runtime.setSessionId(randomUUID());
    this.recorder = SessionRecorder.start(this.dir, runtime.sessionId, this.options);
    runtime.replaceMessages([], { reason: "new", entries: [] });
  }

  /** Leaves the current session for the one `ref` names (id, id prefix or path); throws when none matches. */
  async switchTo(runtime: Runtime, ref: string): Promise<void> {
    this.live();
    const path = resolveSessionArg(this.options.keelHome, this.options.cwd, ref);
    const previous = this.recorder;
    if (previous?.path === path) return;
    this.recorder = undefined;
    try {
      await this.resume(runtime, path);
      previous?.close();
    } catch (error) {
      this.recorder = previous;
      throw error;
    }
  }

  /** The sessions of this folder, most recently used first. */
  list(): SessionSummary[] {
    return listSessions(this.dir);
  }

  /** Opens the session file at `path` as the live one; throws when it cannot be resumed (unreadable, locked). */
  private async resume(runtime: Runtime, path: string): Promise<void> {
    const resumed = SessionRecorder.resume(path, this.options);
    this.recorder = resumed.recorder;
    runtime.replaceMessages(resumed.context.messages, { reason: "resume", entries: resumed.context.entries });
    runtime.setSessionId(resumed.recorder.sessionId);
    if (resumed.warnings.length) this.options.warn(`session ${path}: ${resumed.warnings.join("; ")}`);
    if (resumed.recorder.readOnly) runtime.notify(resumed.recorder.readOnly, "warning");
    const wanted = resumed.model;
    if (wanted && runtime.flags.model === undefined && runtime.flags.provider === undefined) {
      const current = runtime.model;
      if (!current || current.provider !== wanted.provider || current.id !== wanted.model) {
        await runtime
          .setModel(wanted.provider, wanted.model)
          .catch((error: Error) =>
            this.options.warn(
              `session: could not restore the model ${wanted.provider}/${wanted.model} ` +
                `(${error.message}); using ${current ? `${current.provider}/${current.id}` : "the default"}`,
            ),
          );
      }
    }
  }

  onMessage(message: Message): void {
    this.recorder?.recordMessage(message);
  }

  onCompaction(
    event: EventPayloads["compaction_end"],
    history: readonly Message[],
    pluginEntries: readonly PluginEntry[],
  ): void {
    this.recorder?.recordCompaction(event, history, pluginEntries);
  }

  onPluginEntry(entry: PluginEntry): void {
    this.recorder?.recordPluginEntry(entry);
  }

  /** The whole current file; throws a user-facing message when there is none yet. */
  load(): LoadedSession {
    const r = this.live();
    if (!r.created) throw new Error("nothing is recorded yet: the session file is created with the first prompt");
    const loaded = loadSession(r.path);
    if (loaded.warnings.length) this.options.warn(`session ${r.path}: ${loaded.warnings.join("; ")}`);
    return loaded;
  }

  /** The current file and position, or undefined while nothing is recorded yet. */
  current(): { session: LoadedSession; leafId: string | null; sessionId: string } | undefined {
    const r = this.live();
    return r.created ? { session: this.load(), leafId: r.leafId, sessionId: r.sessionId } : undefined;
  }

  tree(all: boolean): string {
    return renderTree(this.load(), this.live().leafId, { all });
  }

  /** Moves to entry `ref`; with `summarize`, first records a summary of the branch being left. */
  async jump(runtime: Runtime, ref: string, summarize: boolean): Promise<string> {
    const r = this.live();
    const session = this.load();
    const target = resolveEntry(session, ref);
    const newBranch = branchTo(session.byId, target.id);
    const shared = new Set(newBranch.map((e) => e.id));
    const left = r.leafId ? branchTo(session.byId, r.leafId).filter((e) => !shared.has(e.id)) : [];
    // Summarise before moving, so a failed summary leaves the session where it was.
    const summary =
      summarize && left.length > 0
        ? await summariseBranch(runtime, buildContext(left, { partial: true }).messages)
        : undefined;
    r.moveTo(target.id);
    const extra = summary === undefined ? [] : [r.append({ type: "branch_summary", summary, fromId: left.at(-1)!.id })];
    const context = buildContext([...newBranch, ...extra]);
    r.adopt(context);
    runtime.replaceMessages(context.messages, { reason: "tree", entries: context.entries });
    return (
      `Moved to ${target.id}; ${context.messages.length} messages in ` +
      `context${extra.length ? " (with a summary of the branch you left)" : ""}.`
    );
  }

  /** Starts a new session file from the branch ending at `ref` (default: the current position). */
  fork(runtime: Runtime, ref: string | undefined): string {
    const r = this.live();
    const session = this.load();
    const target = ref ? resolveEntry(session, ref) : session.byId.get(r.leafId ?? "");
    if (!target) throw new Error("the current position is not in the file; name an entry: /fork <id>");
    const { recorder, context } = SessionRecorder.fork(
      this.dir,
      { header: session.header, path: session.path },
      branchTo(session.byId, target.id),
      this.options,
    );
    r.close();
    this.recorder = recorder;
    runtime.setSessionId(recorder.sessionId);
    runtime.replaceMessages(context.messages, { reason: "fork", entries: context.entries });
    return `Forked at ${target.id} into session ${recorder.sessionId} (${recorder.path}).`;
  }

  /** Labels entry `ref` (default: the current position); an empty text removes the label. */
  label(ref: string | undefined, text: string): string {
    const r = this.live();
    const targetId = ref ? resolveEntry(this.load(), ref).id : r.leafId;
    if (!targetId) throw new Error("there is nothing to label yet");
    r.append({ type: "label", targetId, label: text || null });
    return text ? `Labelled ${targetId} "${text}".` : `Removed the label of ${targetId}.`;
  }

  name(text: string): string {
    this.live().append({ type: "custom", customType: NAME_ENTRY, data: { name: text } });
    return `Session named "${text}".`;
  }

  /** Writes the active branch as Markdown or HTML; returns the path. */
  export(format: "md" | "html", path: string | undefined): string {
    const r = this.live();
    const session = this.load();
    const branch = branchTo(session.byId, r.leafId);
    const name = freshMeta(session.path).name;
    const out = resolve(this.options.cwd, path ?? `session-${session.header.id.slice(0, 8)}.${format}`);
    writeFileSync(
      out,
      format === "html" ? toHtml(session.header, branch, name) : toMarkdown(session.header, branch, name),
    );
    return out;
  }

  close(): void {
    this.recorder?.close();
    this.recorder = undefined;
  }

  private live(): SessionRecorder {
    if (!this.recorder) throw new Error("this run keeps no session (--no-session)");
    return this.recorder;
  }
}
