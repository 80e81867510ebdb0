/**
 * The marketplace: search the catalogs, see a plugin's capabilities and contributions, install (after the
 * same consent `keel install` asks for, shown as a dialog) and remove. The server runs keel's own commands for
 * each, so the checks and the lock are the terminal's. New sessions load what was installed.
 */
import type { CatalogPlugin } from "@keel/extensions-api/catalog";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.ts";
import { PluginDetails, type Info } from "./plugin-details.tsx";
import "./market.css";

type Hit = { catalog: string; plugin: CatalogPlugin };
type Installed = { name: string; version: string; scope: string; state: string; source: string; reason?: string };
type Step = { job: string; asking: true; text: string } | { asking: false; code: number; text: string };

export function Market() {
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<Hit[] | undefined>();
  const [installed, setInstalled] = useState<Installed[]>([]);
  const [info, setInfo] = useState<Info | undefined>();
  const [consent, setConsent] = useState<{ job: string; text: string } | undefined>();
  const [output, setOutput] = useState<{ text: string; ok: boolean } | undefined>();
  const [busy, setBusy] = useState(false);

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      setOutput({ text: (e as Error).message, ok: false });
    } finally {
      setBusy(false);
    }
  };
  const refresh = () => attempt(async () => setInstalled(await api<Installed[]>("/api/market/installed")));
  const search = () =>
    attempt(async () => setHits(await api<Hit[]>(`/api/market/search?q=${encodeURIComponent(query)}`)));
  const details = (name: string) =>
    attempt(async () => setInfo(await api<Info>(`/api/market/info?name=${encodeURIComponent(name)}`)));
  const step = (next: Step) => {
    if (next.asking) return setConsent({ job: next.job, text: next.text });
    setConsent(undefined);
    setOutput({ text: next.text.trim(), ok: next.code === 0 });
    void refresh();
  };
  const install = (name: string) =>
    attempt(async () => step(await api<Step>("/api/market/install", { method: "POST", body: { name } })));
  const answer = (yes: boolean) =>
    attempt(async () =>
      step(await api<Step>("/api/market/answer", { method: "POST", body: { job: consent!.job, yes } })),
    );
  const remove = (name: string) =>
    attempt(async () => {
      const done = await api<{ code: number; text: string }>("/api/market/remove", { method: "POST", body: { name } });
      setOutput({ text: done.text.trim(), ok: done.code === 0 });
      await refresh().then(() => setInfo(undefined));
    });
  useEffect(() => {
    void refresh();
    void search();
  }, []);

  return (
    <main class="market" aria-busy={busy}>
      <form
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <input
          type="search"
          aria-label="Search the catalogs"
          placeholder="Search the catalogs"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </form>
      {output && (
        <pre class={`result ${output.ok ? "ok" : "error"}`} role="status">
          {output.text}
        </pre>
      )}
      <section aria-label="Catalog plugins">
        <h2>In the catalogs</h2>
        {hits?.length === 0 && <p>Nothing matches. `keel market add &lt;path|url&gt;` adds a catalog.</p>}
        <ul class="cards">
          {hits?.map(({ catalog, plugin }) => (
            <li key={`${plugin.name}@${catalog}`} class="card">
              <h3>
                {plugin.name}
                <small>@{catalog}</small>
              </h3>
              <p>{plugin.description}</p>
              {plugin.capabilities.length > 0 && <p class="caps">may: {plugin.capabilities.join(", ")}</p>}
              {plugin.deprecated && <p class="warning">deprecated: {plugin.deprecated}</p>}
              <div class="buttons">
                <button type="button" class="quiet" onClick={() => details(plugin.name)}>
                  Details
                </button>
                <button type="button" onClick={() => install(`${plugin.name}@${catalog}`)} disabled={busy}>
                  Install
                </button>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Installed plugins">
        <h2>Installed</h2>
        {installed.length === 0 && <p>None yet.</p>}
        <ul class="cards">
          {installed.map((p) => (
            <li key={`${p.scope}/${p.name}`} class="card">
              <h3>
                {p.name}
                <small>
                  {p.version} · {p.scope} · {p.state}
                </small>
              </h3>
              {p.reason && <p class="warning">{p.reason}</p>}
              <div class="buttons">
                <button type="button" class="quiet" onClick={() => details(p.name)}>
                  Details
                </button>
                <button type="button" class="danger" onClick={() => remove(p.name)} disabled={busy}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      </section>
      {info && <PluginDetails info={info} close={() => setInfo(undefined)} />}
      {consent && (
        <dialog open class="question consent" aria-labelledby="consent-title">
          <h2 id="consent-title">Install this plugin?</h2>
          <pre>{consent.text.trim()}</pre>
          <div class="buttons">
            <button type="button" onClick={() => answer(true)} disabled={busy}>
              Install
            </button>
            <button type="button" class="quiet" onClick={() => answer(false)} disabled={busy}>
              Cancel
            </button>
          </div>
        </dialog>
      )}
    </main>
  );
}
