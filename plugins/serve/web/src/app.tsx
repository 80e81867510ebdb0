/**
 * The page: the sessions beside the open one, or the marketplace (its code is a chunk of its own, loaded the
 * first time it is opened). The address's hash is the route: `#/s/<id>` a session, `#/market` the marketplace.
 */
import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { listSessions, openSession } from "./api.ts";
import { SessionView } from "./session-view.tsx";
import { Sessions } from "./sessions.tsx";

function route(): { session?: string; market?: boolean } {
  const hash = location.hash;
  if (hash === "#/market") return { market: true };
  const session = /^#\/s\/([\w-]+)$/.exec(hash)?.[1];
  return session ? { session } : {};
}

export function App() {
  const [where, setWhere] = useState(route());
  const [Market, setMarket] = useState<ComponentType | undefined>();
  const go = (hash: string) => {
    location.hash = hash;
  };
  useEffect(() => {
    const onHash = () => setWhere(route());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (where.market && !Market) void import("./market.tsx").then((m) => setMarket(() => m.Market));
    // With nothing chosen, the session held most recently (or a new one), unless the user chose meanwhile.
    if (!where.market && !where.session)
      void listSessions().then(async ({ live }) => {
        const id = live[0]?.id ?? (await openSession()).id;
        if (location.hash === "") go(`#/s/${id}`);
      });
  }, [where]);
  return (
    <div class="app">
      <aside>
        <h1>keel</h1>
        <a class={`tab${where.market ? " current" : ""}`} href="#/market">
          Marketplace
        </a>
        <Sessions current={where.session} go={go} />
      </aside>
      {where.market ? (
        Market ? (
          <Market />
        ) : (
          <main class="loading">Loading…</main>
        )
      ) : where.session ? (
        <SessionView key={where.session} id={where.session} />
      ) : (
        <main class="loading">Opening a session…</main>
      )}
    </div>
  );
}
