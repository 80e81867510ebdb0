/**
 * One plugin as `keel info` tells it: what it contributes (once loaded), the capabilities and hooks its lock
 * entry recorded at install, and what each catalog lists of it.
 */
import type { PluginInfo } from "@keel/extensions-api";
import type { CatalogPlugin } from "@keel/extensions-api/catalog";

export interface Info {
  name: string;
  installed: { scope: string; entry: { version: string; source: string; capabilities: string[]; hooks: string[] } }[];
  loaded?: PluginInfo;
  catalogs: { catalog: string; plugin: CatalogPlugin }[];
}

export function PluginDetails(props: { info: Info; close(): void }) {
  const { info } = props;
  const contributes = Object.entries(info.loaded?.contributes ?? {}).filter(([, names]) => names.length > 0);
  return (
    <section class="details" aria-label={`Details of ${info.name}`}>
      <header>
        <h2>{info.name}</h2>
        <button type="button" class="quiet" aria-label="Close details" onClick={props.close}>
          ×
        </button>
      </header>
      {info.installed.map(({ scope, entry }) => (
        <dl key={scope}>
          <dt>Installed</dt>
          <dd>
            {entry.version} ({scope}) from {entry.source}
          </dd>
          <dt>Capabilities</dt>
          <dd>{entry.capabilities.join(", ") || "none declared"}</dd>
          <dt>Hooks</dt>
          <dd>{entry.hooks.join(", ") || "none"}</dd>
        </dl>
      ))}
      {info.loaded && (
        <dl>
          <dt>State</dt>
          <dd>
            {info.loaded.state}
            {info.loaded.reason ? ` (${info.loaded.reason})` : ""}
          </dd>
          <dt>Contributes</dt>
          <dd>{contributes.map(([kind, names]) => `${kind}: ${names.join(", ")}`).join("; ") || "nothing"}</dd>
        </dl>
      )}
      {info.catalogs.map(({ catalog, plugin }) => (
        <dl key={catalog}>
          <dt>In “{catalog}”</dt>
          <dd>{plugin.description}</dd>
          <dt>Source</dt>
          <dd>{plugin.source}</dd>
          <dt>Capabilities</dt>
          <dd>{plugin.capabilities.join(", ") || "none declared"}</dd>
          <dt>Versions</dt>
          <dd>
            {plugin.versions
              .map((v) => `${v.version}${v.blocked ? " (blocked)" : v.deprecated ? " (deprecated)" : ""}`)
              .join(", ") || "any"}
          </dd>
        </dl>
      ))}
      {info.installed.length === 0 && <p>Not installed: its contributions are shown when you install it.</p>}
    </section>
  );
}
