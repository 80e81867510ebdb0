/** The server's HTTP API, from the page: same origin, the cookie carries the token. */

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? {} : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

/** A session the server holds. */
export interface LiveSession {
  id: string;
  sessionId: string;
  isRunning: boolean;
  clients: number;
  firstPrompt?: string;
  model?: string;
}

/** A session kept on disk for this workspace. */
export interface StoredSession {
  id: string;
  name?: string;
  firstPrompt?: string;
  created: string;
  lastUse: number;
}

export const listSessions = () => api<{ live: LiveSession[]; stored: StoredSession[] }>("/api/sessions");
export const openSession = (resume?: string) =>
  api<{ id: string }>("/api/sessions", { method: "POST", body: resume ? { resume } : {} });
export const closeSession = (id: string) => api<object>(`/api/sessions/${id}`, { method: "DELETE" });
