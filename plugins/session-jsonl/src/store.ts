/**
 * The plugin's `SessionStore`: what surfaces (RPC, ACP, the terminal UI) use to list, start, switch, fork and
 * walk sessions, on the same controller the slash commands use. Moving is refused while a run is going.
 */
import type { Runtime, SessionStore, SessionTreeEntry } from "@keel/extensions-api";
import type { SessionController } from "./controller.ts";
import type { Entry } from "./format.ts";
import { describeEntry, labelsOf } from "./tree.ts";

function idle(runtime: Runtime, what: string): void {
  if (runtime.isRunning) throw new Error(`cannot ${what} while the agent is working; abort it or wait until it stops`);
}

function kindOf(entry: Entry): string {
  return entry.type === "message" ? entry.message.role : entry.type;
}

export function sessionStore(controller: SessionController, runtime: () => Runtime): SessionStore {
  return {
    name: "jsonl",
    list: () =>
      controller.list().map((s) => ({
        id: s.id,
        path: s.path,
        name: s.name,
        firstPrompt: s.firstPrompt,
        created: s.created,
        lastUse: s.lastUse,
      })),
    async newSession() {
      idle(runtime(), "start a new session");
      controller.newSession(runtime());
    },
    async switchTo(ref) {
      idle(runtime(), "switch sessions");
      await controller.switchTo(runtime(), ref);
    },
    async fork(ref) {
      idle(runtime(), "fork");
      controller.fork(runtime(), ref);
      return runtime().sessionId;
    },
    tree() {
      const current = controller.current();
      if (!current) return { sessionId: runtime().sessionId, entries: [], leafId: null };
      const labels = labelsOf(current.session.entries);
      const entries: SessionTreeEntry[] = current.session.entries.map((e) => ({
        id: e.id,
        parentId: e.parentId,
        kind: kindOf(e),
        preview: describeEntry(e),
        ...(labels.has(e.id) ? { label: labels.get(e.id) } : {}),
        timestamp: e.timestamp,
      }));
      return { sessionId: current.sessionId, entries, leafId: current.leafId };
    },
    async jump(ref, options) {
      idle(runtime(), "move in the tree");
      await controller.jump(runtime(), ref, options?.summarize ?? false);
    },
  };
}
