/**
 * The plugin entries of the active branch (`api.session`). The runtime holds them so that every plugin sees
 * the same list whatever the store; the store keeps them on disk (it hears `session_entry`) and hands the new
 * branch's back through `replaceMessages`. Entries are frozen JSON copies: one plugin cannot change what
 * another, or the store, was given.
 */
import type { PluginEntry } from "@keel/extensions-api";

const KIND = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_DATA_CHARS = 1 << 20;

/** A deep, frozen copy of JSON text (the reviver runs leaves first, so each object is frozen once complete). */
function frozenJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "object" && value !== null ? Object.freeze(value) : value,
  );
}

export class PluginEntries {
  private list: readonly PluginEntry[] = [];

  constructor(private readonly appended: (entry: PluginEntry) => void) {}

  get all(): readonly PluginEntry[] {
    return this.list;
  }

  /** Checks and copies `data`, appends the entry and reports it; throws a message naming the plugin. */
  append(plugin: string, kind: string, data: unknown): PluginEntry {
    const where = `${plugin}: api.session.append(${JSON.stringify(kind)})`;
    if (typeof kind !== "string" || !KIND.test(kind))
      throw new Error(`${where}: the kind must be 1-64 letters, digits, _ . : or -`);
    let text: string | undefined;
    try {
      text = JSON.stringify(data);
    } catch (error) {
      throw new Error(`${where}: the data must be plain JSON (${(error as Error).message})`);
    }
    if (text === undefined) throw new Error(`${where}: the data must be plain JSON (got ${typeof data})`);
    if (text.length > MAX_DATA_CHARS) {
      throw new Error(
        `${where}: the data is ${text.length} characters as JSON, over the 1 MB limit; keep large ` +
          `state in runtime.dataDir and store its name`,
      );
    }
    const entry: PluginEntry = Object.freeze({ plugin, kind, data: frozenJson(text), timestamp: Date.now() });
    this.list = Object.freeze([...this.list, entry]);
    this.appended(entry);
    return entry;
  }

  /** `plugin`'s entries, optionally of one kind, oldest first. */
  of(plugin: string, kind?: string): PluginEntry[] {
    return this.list.filter((e) => e.plugin === plugin && (kind === undefined || e.kind === kind));
  }

  /** Takes the entries of a new branch, as `checkedEntries` copied them. */
  set(entries: readonly PluginEntry[]): void {
    this.list = Object.freeze([...entries]);
  }
}

/** Frozen copies of the entries a store hands back; a malformed one is a store bug, named in the error. */
export function checkedEntries(entries: readonly PluginEntry[]): PluginEntry[] {
  return entries.map((e, i) => {
    if (typeof e?.plugin !== "string" || typeof e.kind !== "string") {
      throw new Error(
        `replaceMessages: plugin entry ${i} has no plugin or kind name; a session store must hand ` +
          `back the entries it was given`,
      );
    }
    const timestamp = typeof e.timestamp === "number" ? e.timestamp : Date.now();
    return Object.freeze({
      plugin: e.plugin,
      kind: e.kind,
      data: frozenJson(JSON.stringify(e.data ?? null)),
      timestamp,
    });
  });
}
