/**
 * Named contributions with provenance. Two plugins may contribute the same name; that is never fatal. The
 * user's explicit choice (`prefer` in settings) keeps the plain name; otherwise the plugin that comes first in
 * load order does, and the other is reachable under a qualified alias, with a warning that says so.
 */
import type { PluginRef } from "@keel/extensions-api";

export interface Owner extends PluginRef {
  /** Position in load order (distribution first, then user, then --plugin). */
  order: number;
}

export interface Entry<T> {
  /** The name users and models see (plain or alias). */
  name: string;
  /** The name the plugin gave. */
  declared: string;
  item: T;
  owner: Owner;
}

export class Registry<T> {
  private readonly items: { declared: string; item: T; owner: Owner; seq: number }[] = [];
  private resolved: Map<string, Entry<T>> | undefined;
  private listing: readonly Entry<T>[] | undefined;
  private readonly warned = new Set<string>();
  private seq = 0;

  constructor(
    /** The kind: its noun for messages, its key in `prefer`. */
    private readonly kind: { noun: string; key: string },
    private readonly alias: (declared: string, owner: Owner) => string,
    private readonly preferred: () => Record<string, string>,
    private readonly warn: (message: string, owner: Owner) => void,
  ) {}

  /** Adds a contribution; returns its remover. */
  add(declared: string, item: T, owner: Owner): () => void {
    const record = { declared, item, owner, seq: this.seq++ };
    this.items.push(record);
    this.resolved = this.listing = undefined;
    return () => {
      const i = this.items.indexOf(record);
      if (i >= 0) this.items.splice(i, 1);
      this.resolved = this.listing = undefined;
    };
  }

  get(name: string): Entry<T> | undefined {
    return this.resolve().get(name);
  }

  list(): Entry<T>[] {
    return [...this.resolve().values()];
  }

  /** What `list()` gives, as the same array until the next add or remove: a reader can tell it is unchanged. */
  entries(): readonly Entry<T>[] {
    return (this.listing ??= this.list());
  }

  /** The names one plugin registered, as it gave them. */
  declaredBy(owner: string): string[] {
    return this.items.filter((r) => r.owner.name === owner).map((r) => r.declared);
  }

  private resolve(): Map<string, Entry<T>> {
    if (this.resolved) return this.resolved;
    const byName = new Map<string, typeof this.items>();
    for (const record of this.items) byName.set(record.declared, [...(byName.get(record.declared) ?? []), record]);
    const out = new Map<string, Entry<T>>();
    const prefer = this.preferred();
    for (const [declared, group] of byName) {
      const sorted = [...group].sort((a, b) => a.owner.order - b.owner.order || a.seq - b.seq);
      const chosenName = prefer[declared];
      const chosen = (chosenName && sorted.find((r) => r.owner.name === chosenName)) || sorted[0]!;
      out.set(declared, { name: declared, declared, item: chosen.item, owner: chosen.owner });
      for (const other of sorted) {
        if (other === chosen) continue;
        const alias = this.alias(declared, other.owner);
        out.set(alias, { name: alias, declared, item: other.item, owner: other.owner });
        const key = `${declared}|${other.owner.name}`;
        if (!this.warned.has(key)) {
          this.warned.add(key);
          const why =
            chosenName && chosen.owner.name === chosenName ? "your settings prefer it" : "it was loaded first";
          this.warn(
            `${this.kind.noun} "${declared}" is contributed by both ${chosen.owner.name} ` +
              `and ${other.owner.name}; ${chosen.owner.name} keeps the name ` +
              `(${why}), ${other.owner.name}'s is available as "${alias}". Set "prefer": { ` +
              `"${this.kind.key}": { "${declared}": "<plugin>" } } in settings to choose.`,
            other.owner,
          );
        }
      }
    }
    this.resolved = out;
    return out;
  }
}

/** A short, identifier-safe form of a package name: `@acme/keel-grep` → `acme_keel_grep`. */
export function shortName(packageName: string): string {
  return packageName
    .replace(/^@/, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** Aliases per contribution kind; tool names must stay within what providers accept (`[A-Za-z0-9_-]{1,64}`). */
export const aliasFor = {
  tool: (name: string, owner: Owner) => `${shortName(owner.name)}__${name}`.slice(-64),
  command: (name: string, owner: Owner) => `/${shortName(owner.name)}:${name.replace(/^\//, "")}`,
  other: (name: string, owner: Owner) => `${shortName(owner.name)}:${name}`,
};
