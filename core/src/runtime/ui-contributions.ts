/** What `Runtime.ui()` returns: the UI extension points of the active plugins, read from the registries. */
import type { Tool, UiContributions } from "@keel/extensions-api";
import type { Contributions } from "../host/registries.js";

export function uiContributions(contributions: Contributions): UiContributions {
  const items = <T>(list: { item: T }[]) => list.map((e) => e.item);
  return {
    toolRenderer: (name) => (contributions.tools.get(name)?.item as Tool | undefined)?.render,
    get statusEntries() {
      return items(contributions.statusEntries.list());
    },
    get widgets() {
      return items(contributions.widgets.list());
    },
    messageRenderer: (entry) =>
      contributions.messageRenderers.list().find((e) => e.owner.name === entry.plugin && e.item.kind === entry.kind)
        ?.item,
    get keybindings() {
      return items(contributions.keybindings.list());
    },
  };
}
