/**
 * The sessions: those the server holds now (running ones marked) and those stored for this workspace, with a
 * search over their names, first prompts and ids. Opening a stored one resumes it on the server.
 */
import { useEffect, useState } from "preact/hooks";
import { closeSession, listSessions, openSession, type LiveSession, type StoredSession } from "./api.ts";

const REFRESH_MS = 5_000;
/** Dispatched on the window when a session's list entry may have changed (a run started or ended). */
export const SESSIONS_CHANGED = "keel-sessions-changed";

export function Sessions(props: { current?: string; go(hash: string): void }) {
  const [live, setLive] = useState<LiveSession[]>([]);
  const [stored, setStored] = useState<StoredSession[]>([]);
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | undefined>();
  const refresh = async () => {
    try {
      const list = await listSessions();
      setLive(list.live);
      setStored(list.stored);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    const onChange = () => void refresh();
    addEventListener(SESSIONS_CHANGED, onChange);
    return () => (clearInterval(timer), removeEventListener(SESSIONS_CHANGED, onChange));
  }, [props.current]);

  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    }
    await refresh();
  };
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (...fields: (string | undefined)[]) =>
    words.every((w) => fields.some((f) => f?.toLowerCase().includes(w)));
  const held = new Set(live.map((s) => s.sessionId));
  return (
    <nav class="sessions" aria-label="Sessions">
      <button type="button" class="new" onClick={() => act(async () => props.go(`#/s/${(await openSession()).id}`))}>
        New session
      </button>
      <input
        type="search"
        aria-label="Search sessions"
        placeholder="Search sessions"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      {error && <p class="error">{error}</p>}
      <h3>Open</h3>
      <ul>
        {live
          .filter((s) => matches(s.firstPrompt, s.sessionId, s.model))
          .map((s) => (
            <li key={s.id} class={s.id === props.current ? "current" : ""}>
              <a href={`#/s/${s.id}`}>
                {s.isRunning && <span class="badge">running</span>}
                {s.firstPrompt ?? "(new session)"}
              </a>
              <button
                type="button"
                class="quiet"
                aria-label="Close session"
                onClick={() => act(() => closeSession(s.id))}
              >
                ×
              </button>
            </li>
          ))}
      </ul>
      <h3>Stored</h3>
      <ul>
        {stored
          .filter((s) => !held.has(s.id) && matches(s.name, s.firstPrompt, s.id))
          .map((s) => (
            <li key={s.id}>
              <a
                href="#"
                onClick={(event) => {
                  event.preventDefault();
                  void act(async () => props.go(`#/s/${(await openSession(s.id)).id}`));
                }}
              >
                {s.name ?? s.firstPrompt ?? s.id.slice(0, 8)}
                <small>{new Date(s.lastUse).toLocaleString()}</small>
              </a>
            </li>
          ))}
      </ul>
    </nav>
  );
}
